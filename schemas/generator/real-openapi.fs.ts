import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AvroRecord } from './avro-schema.ts';
import { openApiToAvro } from './openapi-to-avro.ts';
import type { OpenApiDocument } from './openapi.ts';

/**
 * openApiDir is where tests find the kube-apiserver's own OpenAPI v3 documents: $KCM_BUS_OPENAPI_DIR (a folder holding
 * api__v1_openapi.json and apis__coordination.k8s.io__v1_openapi.json, as in kubernetes/api/openapi-spec/v3).
 * Tests over them are skipped, with this reason, when the variable is not set.
 */
export const openApiDir = process.env['KCM_BUS_OPENAPI_DIR'];

/** skipReal is the `skip` option of tests that need the real documents. */
export const skipReal: string | false = openApiDir ? false : 'KCM_BUS_OPENAPI_DIR is not set';

/** WatchedKind is one kind kcm-bus watches and where its definition lives. */
export type WatchedKind = { readonly kind: string; readonly file: string; readonly definition: string };

/** WATCHED_KINDS are the kinds with a kcm.watch.<plural> topic (DESIGN "Topics and records"). */
export const WATCHED_KINDS: readonly WatchedKind[] = [
  { kind: 'Pod', file: 'api__v1_openapi.json', definition: 'io.k8s.api.core.v1.Pod' },
  { kind: 'ReplicationController', file: 'api__v1_openapi.json', definition: 'io.k8s.api.core.v1.ReplicationController' },
  { kind: 'Service', file: 'api__v1_openapi.json', definition: 'io.k8s.api.core.v1.Service' },
  { kind: 'Endpoints', file: 'api__v1_openapi.json', definition: 'io.k8s.api.core.v1.Endpoints' },
  { kind: 'Node', file: 'api__v1_openapi.json', definition: 'io.k8s.api.core.v1.Node' },
  { kind: 'Lease', file: 'apis__coordination.k8s.io__v1_openapi.json', definition: 'io.k8s.api.coordination.v1.Lease' },
];

/** realSchema generates the Avro schema of a watched kind from the real document. */
export function realSchema(kind: WatchedKind): AvroRecord {
  if (!openApiDir) throw new Error('KCM_BUS_OPENAPI_DIR is not set');
  const doc = JSON.parse(readFileSync(join(openApiDir, kind.file), 'utf8')) as OpenApiDocument;
  return openApiToAvro(doc, kind.definition);
}

/** watchedKind looks a watched kind up by name. */
export function watchedKind(kind: string): WatchedKind {
  const found = WATCHED_KINDS.find((k) => k.kind === kind);
  if (!found) throw new Error(`${kind} is not watched`);
  return found;
}
