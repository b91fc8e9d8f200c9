import {
  type EventType,
  type Mutation,
  type MutationCause,
  type MutationEvent,
  type MutationPreconditions,
  type MutationTarget,
  MUTATION_VERBS,
  type ObjectReference,
  PATCH_TYPES,
  type SlowStart,
} from './mutation.ts';
import {
  type Fields,
  invalid,
  InvalidPart,
  jsonText,
  nullableString,
  oneOf,
  record,
  requiredInt,
  requiredString,
} from './validate-fields.ts';

/** MutationError says which part of a record is missing or wrong, e.g. `preconditions.uid: missing (…)`. */
export type MutationError = { readonly error: string };

/** RFC3339 is the shape of metav1.Time and metav1.MicroTime text: date, time, optional fraction, zone. */
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/;

/**
 * validateMutation checks a decoded `kcm.mutations` value and returns it typed, or the first missing or wrong part
 * by its path. Beyond the shape it enforces the idempotency contract per verb: a Create has a body with
 * metadata.name or metadata.generateName; Update/UpdateStatus carry a resourceVersion; a Delete carries the UID
 * precondition; a Patch has patch text and a patchType; a RecordEvent has its event. What passes cannot make a later
 * step throw: a body is a JSON object, a patch is JSON of its type, names are REST path segments, name-like strings
 * are at most MAX_FIELD_LENGTH. The writer sends what fails here to the dead-letter topic with the error as the reason.
 */
export function validateMutation(value: unknown): Mutation | MutationError {
  try {
    const m = readMutation(record(value, 'mutation'));
    checkVerb(m);
    return m;
  } catch (err) {
    if (err instanceof InvalidPart) return { error: err.message };
    throw err;
  }
}

/** isMutationError tells validateMutation's error answer from a Mutation. */
export function isMutationError(value: Mutation | MutationError): value is MutationError {
  return 'error' in value;
}

function readMutation(f: Fields): Mutation {
  const createdAt = requiredString(f, 'createdAt', '');
  if (!RFC3339.test(createdAt) || Number.isNaN(Date.parse(createdAt)))
    invalid('createdAt', `not RFC 3339 (${createdAt})`);
  const patchType =
    f['patchType'] === undefined || f['patchType'] === null ? null : oneOf(f, 'patchType', '', PATCH_TYPES);
  return {
    id: requiredString(f, 'id', ''),
    controller: requiredString(f, 'controller', ''),
    verb: oneOf(f, 'verb', '', MUTATION_VERBS),
    target: readTarget(record(f['target'], 'target')),
    preconditions: readPreconditions(record(f['preconditions'], 'preconditions')),
    body: nullableString(f, 'body', '', Infinity),
    patch: nullableString(f, 'patch', '', Infinity),
    patchType,
    fieldManager: nullableString(f, 'fieldManager', ''),
    cause: readCause(f['cause']),
    createdAt,
    event: f['event'] === undefined || f['event'] === null ? null : readEvent(record(f['event'], 'event')),
    reconcileKey: nullableString(f, 'reconcileKey', ''),
    slowStart:
      f['slowStart'] === undefined || f['slowStart'] === null
        ? null
        : readSlowStart(record(f['slowStart'], 'slowStart')),
  };
}

/** MAX_SLOW_START_SIZE bounds a run: upstream's burstReplicas default is 500; no run need be longer than this. */
const MAX_SLOW_START_SIZE = 10_000;

function readSlowStart(f: Fields): SlowStart {
  const size = requiredInt(f, 'size', 'slowStart.');
  const index = requiredInt(f, 'index', 'slowStart.');
  if (size === 0 || size > MAX_SLOW_START_SIZE)
    invalid('slowStart.size', `not between 1 and ${MAX_SLOW_START_SIZE} (${size})`);
  if (index >= size) invalid('slowStart.index', `${index} is not below the size ${size}`);
  return { run: requiredString(f, 'run', 'slowStart.'), index, size };
}

function readTarget(f: Fields): MutationTarget {
  const namespace = nullableString(f, 'namespace', 'target.');
  const name = requiredString(f, 'name', 'target.', false);
  if (namespace !== null) pathSegmentName(namespace, 'target.namespace');
  if (name !== '') pathSegmentName(name, 'target.name');
  return {
    apiVersion: requiredString(f, 'apiVersion', 'target.'),
    kind: requiredString(f, 'kind', 'target.'),
    namespace,
    name,
    resource: requiredString(f, 'resource', 'target.'),
    subresource: nullableString(f, 'subresource', 'target.'),
  };
}

/** pathSegmentName refuses what cannot be one segment of a REST path. Mirrors apimachinery path.IsValidPathSegmentName. */
function pathSegmentName(name: string, path: string): void {
  if (name === '.' || name === '..') invalid(path, `${JSON.stringify(name)} may not be a name`);
  if (/[/%]/.test(name)) invalid(path, `${JSON.stringify(name)} may not contain '/' or '%'`);
}

function readPreconditions(f: Fields): MutationPreconditions {
  return {
    uid: nullableString(f, 'uid', 'preconditions.'),
    resourceVersion: nullableString(f, 'resourceVersion', 'preconditions.'),
  };
}

function readCause(value: unknown): readonly MutationCause[] {
  if (!Array.isArray(value))
    return invalid('cause', value === undefined || value === null ? 'missing' : 'not an array');
  return value.map((item: unknown, i) => {
    const f = record(item, `cause[${i}]`);
    const path = `cause[${i}].`;
    const [key, resourceVersion] = [nullableString(f, 'key', path), nullableString(f, 'resourceVersion', path)];
    return {
      topic: requiredString(f, 'topic', path),
      partition: requiredInt(f, 'partition', path),
      offset: requiredInt(f, 'offset', path),
      ...(key === null ? {} : { key }),
      ...(resourceVersion === null ? {} : { resourceVersion }),
    };
  });
}

function readEvent(f: Fields): MutationEvent {
  const source = record(f['source'], 'event.source');
  return {
    involvedObject: readReference(record(f['involvedObject'], 'event.involvedObject')),
    type: oneOf<EventType>(f, 'type', 'event.', ['Normal', 'Warning']),
    reason: requiredString(f, 'reason', 'event.'),
    message: requiredString(f, 'message', 'event.', false, Infinity),
    source: {
      component: requiredString(source, 'component', 'event.source.'),
      host: nullableString(source, 'host', 'event.source.'),
    },
  };
}

function readReference(f: Fields): ObjectReference {
  const path = 'event.involvedObject.';
  return {
    apiVersion: requiredString(f, 'apiVersion', path),
    kind: requiredString(f, 'kind', path),
    namespace: nullableString(f, 'namespace', path),
    name: requiredString(f, 'name', path),
    uid: nullableString(f, 'uid', path),
    resourceVersion: nullableString(f, 'resourceVersion', path),
    fieldPath: nullableString(f, 'fieldPath', path),
  };
}

/**
 * checkVerb enforces what each verb needs beyond the record's shape (the idempotency contract above); a body, of
 * any verb, must be a JSON object, so that no later step (the request, a refused result's name) can fail on it.
 */
function checkVerb(m: Mutation): void {
  if (m.body !== null) record(jsonText(m.body, 'body'), 'body');
  if (m.verb !== 'Create' && m.verb !== 'RecordEvent' && m.target.name === '')
    invalid('target.name', `missing (a ${m.verb} names its object)`);
  switch (m.verb) {
    case 'Create':
      return checkCreate(m);
    case 'Update':
    case 'UpdateStatus':
      return checkUpdate(m);
    case 'Patch':
      return checkPatch(m);
    case 'Delete':
      if (m.preconditions.uid === null)
        invalid(
          'preconditions.uid',
          'missing (a Delete carries the UID precondition, so a replay cannot delete a recreated object)',
        );
      return;
    case 'PopulateToken':
      return checkPopulateToken(m);
    case 'DeleteNamespaceContent':
      return checkNamespaceCommand(m, null);
    case 'FinalizeNamespace':
      return checkNamespaceCommand(m, 'finalize');
    case 'RecordEvent':
      if (m.event === null) invalid('event', 'missing (a RecordEvent carries its event)');
      if (m.target.resource !== 'events')
        invalid('target.resource', `${JSON.stringify(m.target.resource)} is not "events"`);
  }
}

/** checkPopulateToken: a PopulateToken names its Secret's version (uid and resourceVersion) and carries no value. */
function checkPopulateToken(m: Mutation): void {
  if (m.preconditions.uid === null || m.preconditions.resourceVersion === null)
    invalid('preconditions', 'a PopulateToken carries the uid and resourceVersion of the Secret it was decided on');
  if (m.body !== null || m.patch !== null) invalid('body', 'a PopulateToken carries no object: the writer fills it');
  if (m.target.subresource !== null) invalid('target.subresource', 'a PopulateToken writes the Secret itself');
}

/**
 * checkNamespaceCommand: a DeleteNamespaceContent or a FinalizeNamespace names a namespace by its uid (the latter its
 * finalize subresource) and carries nothing else: the writer works on the live namespace.
 */
function checkNamespaceCommand(m: Mutation, subresource: string | null): void {
  if (m.target.resource !== 'namespaces' || m.target.apiVersion !== 'v1' || m.target.namespace !== null)
    invalid('target', `a ${m.verb} names a namespace (v1 namespaces, cluster-scoped)`);
  if (m.preconditions.uid === null)
    invalid('preconditions.uid', `missing (a ${m.verb} names the namespace it was decided on)`);
  if (m.body !== null || m.patch !== null) invalid('body', `a ${m.verb} carries no object`);
  if (m.target.subresource !== subresource)
    invalid('target.subresource', `a ${m.verb} writes ${subresource ?? 'no subresource'}`);
}

function checkCreate(m: Mutation): void {
  const meta = bodyMetadata(m, 'a Create carries the object');
  const name = meta['name'];
  if (name === undefined && typeof meta['generateName'] !== 'string')
    invalid('body.metadata.name', 'missing (and no metadata.generateName either)');
  if (name !== undefined && typeof name !== 'string') invalid('body.metadata.name', 'not a string');
  if (name !== undefined && name !== m.target.name) {
    invalid('target.name', `${JSON.stringify(m.target.name)} differs from body.metadata.name ${JSON.stringify(name)}`);
  }
  if (m.target.subresource !== null) invalid('target.subresource', 'a Create writes the object itself');
}

function checkUpdate(m: Mutation): void {
  const meta = bodyMetadata(m, `an ${m.verb} carries the whole object`);
  if (m.preconditions.resourceVersion === null && typeof meta['resourceVersion'] !== 'string') {
    invalid(
      'preconditions.resourceVersion',
      `missing (an ${m.verb} carries the resourceVersion it read, in preconditions or body.metadata)`,
    );
  }
  if (m.verb === 'UpdateStatus' && m.target.subresource !== null && m.target.subresource !== 'status') {
    invalid(
      'target.subresource',
      `${JSON.stringify(m.target.subresource)}: an UpdateStatus writes the status subresource`,
    );
  }
}

function checkPatch(m: Mutation): void {
  if (m.patch === null) invalid('patch', 'missing (a Patch carries its patch)');
  if (m.patchType === null) invalid('patchType', `missing (one of ${PATCH_TYPES.join(', ')})`);
  const patch = jsonText(m.patch, 'patch');
  if (m.patchType === 'json' && !Array.isArray(patch)) invalid('patch', 'a json patch is an array of operations');
  if (m.patchType !== 'json' && (typeof patch !== 'object' || patch === null || Array.isArray(patch)))
    invalid('patch', `a ${m.patchType} patch is an object`);
}

function bodyMetadata(m: Mutation, why: string): Fields {
  if (m.body === null) invalid('body', `missing (${why})`);
  const body = record(jsonText(m.body, 'body'), 'body');
  return record(body['metadata'], 'body.metadata');
}
