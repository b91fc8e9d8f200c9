import { objectNameOf, type Mutation, type PatchType, subresourceOf } from '@kcm-bus/runtime/mutation/index.ts';
import { resourcePath } from './rest-path.ts';

/** HttpMethod is the method of a request to the apiserver: the writes, and GET for what a write checks live. */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * KubeRequest is one HTTP request to the apiserver, described, not sent: `apply.kube.ts` joins path and query to
 * the cluster's server URL, adds credentials with KubeConfig.applyToFetchOptions and fetches. name is the object's
 * name as written (derived for generateName creates, chosen by the correlator for Events). preconditionTests is true
 * when a json patch carries the preconditions as `test` ops, whose failure the apiserver answers with a bare 422.
 */
export type KubeRequest = {
  readonly method: HttpMethod;
  readonly path: string;
  readonly query: Readonly<Record<string, string>>;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string | null;
  readonly name: string;
  readonly preconditionTests: boolean;
};

/**
 * getRequest describes a GET of `path` answered as `accept` (an object, a list, metadata only, discovery), for what
 * the writer reads: a live check's object, a content pass's lists and discovery. name is the object's, if one.
 */
export function getRequest(path: string, accept: string, name = ''): KubeRequest {
  return { method: 'GET', path, query: {}, headers: { Accept: accept }, body: null, name, preconditionTests: false };
}

/** PATCH_CONTENT_TYPES are the content types the apiserver dispatches patch flavours on (types.PatchType). */
export const PATCH_CONTENT_TYPES: Readonly<Record<PatchType, string>> = {
  json: 'application/json-patch+json',
  merge: 'application/merge-patch+json',
  'strategic-merge': 'application/strategic-merge-patch+json',
  apply: 'application/apply-patch+yaml',
};

type Json = Record<string, unknown>;
const JSON_HEADERS = { Accept: 'application/json', 'Content-Type': 'application/json' };

/**
 * toRequest turns a validated Mutation (any verb but RecordEvent, which goes through the EventCorrelator) into its
 * request, carrying the idempotency rules: a Create names its object (body name, else target name, else
 * generatedName from generateName and the id, so a replay meets AlreadyExists); an Update/UpdateStatus carries metadata.resourceVersion and metadata.uid from
 * the preconditions; a Delete carries them as DeleteOptions.preconditions; a Patch carries them in its metadata
 * (json patches: as `test` ops). Every write but Delete names its field manager (the controller by default).
 */
export function toRequest(m: Mutation): KubeRequest {
  switch (m.verb) {
    case 'Create':
      return createRequest(m);
    case 'Update':
    case 'UpdateStatus':
      return updateRequest(m);
    case 'Patch':
      return patchRequest(m);
    case 'Delete':
      return deleteRequest(m);
    case 'RecordEvent':
      throw new Error(`mutation ${m.id}: a RecordEvent is written through the EventCorrelator (eventRequest)`);
    case 'PopulateToken':
      throw new Error(`mutation ${m.id}: a PopulateToken is written by populateToken, from the live Secret`);
    case 'DeleteNamespaceContent':
      throw new Error(`mutation ${m.id}: a DeleteNamespaceContent is a pass of deleteNamespaceContent, many requests`);
    case 'FinalizeNamespace':
      throw new Error(`mutation ${m.id}: a FinalizeNamespace is written by finalizeNamespace, from the live namespace`);
  }
}

/** fieldManagerOf is the field manager of a mutation's writes: its own, else its controller (one per controller). */
export function fieldManagerOf(m: Pick<Mutation, 'fieldManager' | 'controller'>): string {
  return m.fieldManager ?? m.controller;
}

function createRequest(m: Mutation): KubeRequest {
  const body = parseObject(m.body);
  const meta = (body['metadata'] ?? {}) as Json;
  const name = objectNameOf(m);
  const named = { ...body, metadata: { ...meta, name } };
  const path = resourcePath(m.target);
  return write('POST', path, { fieldManager: fieldManagerOf(m) }, JSON_HEADERS, JSON.stringify(named), name);
}

function updateRequest(m: Mutation): KubeRequest {
  const body = parseObject(m.body);
  const meta = { ...((body['metadata'] ?? {}) as Json), ...preconditionFields(m) };
  const path = resourcePath(m.target, m.target.name, subresourceOf(m));
  return write(
    'PUT',
    path,
    { fieldManager: fieldManagerOf(m) },
    JSON_HEADERS,
    JSON.stringify({ ...body, metadata: meta }),
    m.target.name,
  );
}

function deleteRequest(m: Mutation): KubeRequest {
  const options = m.body === null ? {} : parseObject(m.body);
  const body = { ...options, apiVersion: 'v1', kind: 'DeleteOptions', preconditions: preconditionFields(m) };
  const path = resourcePath(m.target, m.target.name, subresourceOf(m));
  return write('DELETE', path, {}, JSON_HEADERS, JSON.stringify(body), m.target.name);
}

function patchRequest(m: Mutation): KubeRequest {
  const type = m.patchType ?? 'strategic-merge';
  const patch: unknown = JSON.parse(m.patch ?? 'null');
  const tests = testOps(m);
  const body = Array.isArray(patch) ? [...tests, ...patch] : withPreconditions(patch as Json, m);
  const query: Record<string, string> = { fieldManager: fieldManagerOf(m) };
  if (type === 'apply') query['force'] = 'true';
  const headers = { Accept: 'application/json', 'Content-Type': PATCH_CONTENT_TYPES[type] };
  const path = resourcePath(m.target, m.target.name, subresourceOf(m));
  return {
    ...write('PATCH', path, query, headers, JSON.stringify(body), m.target.name),
    preconditionTests: Array.isArray(patch) && tests.length > 0,
  };
}

/** preconditionFields are the mutation's preconditions as metadata fields, leaving out the absent ones. */
function preconditionFields(m: Mutation): Json {
  const { uid, resourceVersion } = m.preconditions;
  return { ...(uid === null ? {} : { uid }), ...(resourceVersion === null ? {} : { resourceVersion }) };
}

/**
 * withPreconditions puts the preconditions into a merge, strategic or apply patch's metadata: the apiserver
 * answers a stale resourceVersion with 409 Conflict (as upstream's PatchNodeTaints relies on) and a different uid
 * with 422 "metadata.uid: field is immutable", which outcome.ts reads as a Conflict.
 */
function withPreconditions(patch: Json, m: Mutation): Json {
  const fields = preconditionFields(m);
  if (Object.keys(fields).length === 0) return patch;
  return { ...patch, metadata: { ...((patch['metadata'] ?? {}) as Json), ...fields } };
}

/** testOps are RFC 6902 `test` operations asserting the preconditions, put before a json patch's own. */
function testOps(m: Mutation): readonly Json[] {
  return Object.entries(preconditionFields(m)).map(([field, value]) => ({
    op: 'test',
    path: `/metadata/${field}`,
    value,
  }));
}

function parseObject(text: string | null): Json {
  const value: unknown = JSON.parse(text ?? 'null');
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new Error('mutation body is not a JSON object');
  return value as Json;
}

function write(
  method: HttpMethod,
  path: string,
  query: Record<string, string>,
  headers: Record<string, string>,
  body: string,
  name: string,
): KubeRequest {
  return { method, path, query, headers, body, name, preconditionTests: false };
}
