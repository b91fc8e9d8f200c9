import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AvroRecord } from '../avro/avro-schema.ts';
import { openApiToAvro } from './openapi-to-avro.ts';
import type { OpenApiDocument } from './openapi.ts';
import type { WatchedKind } from '../kinds.ts';

/**
 * openApiDir is where tests find the kube-apiserver's own OpenAPI v3 documents: $KCM_BUS_OPENAPI_DIR (a folder holding
 * api__v1_openapi.json and apis__coordination.k8s.io__v1_openapi.json, as in kubernetes/api/openapi-spec/v3).
 * Tests over them are skipped, with this reason, when the variable is not set.
 */
export const openApiDir = process.env['KCM_BUS_OPENAPI_DIR'];

/** skipReal is the `skip` option of tests that need the real documents. */
export const skipReal: string | false = openApiDir ? false : 'KCM_BUS_OPENAPI_DIR is not set';

/** realSchema generates the Avro schema of a watched kind from the real document. */
export function realSchema(kind: WatchedKind): AvroRecord {
  if (!openApiDir) throw new Error('KCM_BUS_OPENAPI_DIR is not set');
  const doc = JSON.parse(readFileSync(join(openApiDir, kind.openApiFile), 'utf8')) as OpenApiDocument;
  return openApiToAvro(doc, kind.definition);
}
