import {
  mutationId,
  type EventType,
  type Mutation,
  type MutationCause,
  type MutationTarget,
} from '@kcm-bus/runtime/mutation/index.ts';
import type { WatchedKind } from '@kcm-bus/schemas/kinds.ts';
import type { ObjectMeta } from './core-v1.ts';
import type { JsonPatchOp } from './json-patch.ts';

/** MutationDraft is a mutation before it has its id, controller, cause and time: what the builders below return. */
export type MutationDraft = Pick<
  Mutation,
  'verb' | 'target' | 'preconditions' | 'body' | 'patch' | 'patchType' | 'event'
> &
  Partial<Pick<Mutation, 'slowStart'>>;

/**
 * MutationLog collects one reconcile's mutations in order and gives each its deterministic id
 * (mutationId(controller, key, cause, attempt, seq = position)), so a replay of the same input names the same
 * objects, and its reconcileKey, so the results come back to this key (and its expectations).
 */
export type MutationLog = {
  readonly push: (draft: MutationDraft) => Mutation;
  /** nextId is the id the next push gets: a Create's generated name, known before its draft is built. */
  readonly nextId: () => string;
  readonly mutations: () => readonly Mutation[];
};

/** mutationLog starts an empty MutationLog for `controller`'s attempt-th sync of `key` from `cause` at `now` (createdAt). */
export function mutationLog(
  controller: string,
  key: string,
  cause: readonly MutationCause[],
  now: Date,
  attempt = 0,
): MutationLog {
  const out: Mutation[] = [];
  const createdAt = now.toISOString();
  const nextId = (): string => mutationId({ controller, key, cause, attempt, seq: out.length });
  const push = (draft: MutationDraft): Mutation => {
    const m: Mutation = {
      slowStart: null,
      ...draft,
      id: nextId(),
      controller,
      fieldManager: null,
      cause,
      createdAt,
      reconcileKey: key,
    };
    out.push(m);
    return m;
  };
  return { push, nextId, mutations: () => [...out] };
}

/** TargetKind is the kind a draft writes: its apiVersion, kind and REST resource (plural), as WATCHED_KINDS names them. */
export type TargetKind = Pick<WatchedKind, 'apiVersion' | 'kind' | 'plural'>;

/** InvolvedObject is what an event is about: an object with its kind (upstream takes it from the scheme). */
export type InvolvedObject = Pick<TargetKind, 'apiVersion' | 'kind'> & { readonly metadata: ObjectMeta };

type TargetMeta = { readonly namespace?: string | undefined; readonly name: string };

const NO_PRECONDITIONS = { uid: null, resourceVersion: null };
const NO_PAYLOAD = { body: null, patch: null, patchType: null, event: null };

function targetOf(kind: TargetKind, { namespace, name }: TargetMeta): MutationTarget {
  return {
    apiVersion: kind.apiVersion,
    kind: kind.kind,
    namespace: namespace ?? null,
    name,
    resource: kind.plural,
    subresource: null,
  };
}

/**
 * createDraft is the typed client's Create (RealPodControl.CreatePods for pods, Endpoints(ns).Create): the target
 * names the body's metadata.name; a body with only a generateName leaves it empty and the writer names the object
 * from the mutation id.
 */
export function createDraft(kind: TargetKind, namespace: string | undefined, body: object): MutationDraft {
  const name = (body as { readonly metadata?: { readonly name?: unknown } }).metadata?.name;
  const target = targetOf(kind, { namespace, name: typeof name === 'string' ? name : '' });
  return { ...NO_PAYLOAD, verb: 'Create', target, preconditions: NO_PRECONDITIONS, body: JSON.stringify(body) };
}

/** deleteDraft is the typed client's Delete (RealPodControl.DeletePod), with the UID as precondition so a recreated namesake survives. */
export function deleteDraft(kind: TargetKind, meta: Pick<ObjectMeta, 'namespace' | 'name' | 'uid'>): MutationDraft {
  return {
    ...NO_PAYLOAD,
    verb: 'Delete',
    target: targetOf(kind, meta),
    preconditions: { uid: meta.uid, resourceVersion: null },
  };
}

/**
 * populateTokenDraft is a PopulateToken of a token Secret: its name and the version it was decided on (uid and
 * resourceVersion), no value; the writer fills it (generateTokenIfNeeded at apply time).
 */
export function populateTokenDraft(
  kind: TargetKind,
  meta: Pick<ObjectMeta, 'namespace' | 'name' | 'uid' | 'resourceVersion'>,
): MutationDraft {
  return {
    ...NO_PAYLOAD,
    verb: 'PopulateToken',
    target: targetOf(kind, meta),
    preconditions: { uid: meta.uid, resourceVersion: meta.resourceVersion ?? null },
  };
}

/**
 * namespaceCommandDraft is a command on a terminating namespace, named by its uid, that the writer carries out on the
 * live namespace: DeleteNamespaceContent (upstream's deleteAllContent; its result reports what is left) or
 * FinalizeNamespace (finalizeNamespace, through the finalize subresource).
 */
export function namespaceCommandDraft(
  kind: TargetKind,
  verb: 'DeleteNamespaceContent' | 'FinalizeNamespace',
  meta: Pick<ObjectMeta, 'name' | 'uid'>,
): MutationDraft {
  const target = targetOf(kind, { name: meta.name });
  return {
    ...NO_PAYLOAD,
    verb,
    target: verb === 'FinalizeNamespace' ? { ...target, subresource: 'finalize' } : target,
    preconditions: { uid: meta.uid, resourceVersion: null },
  };
}

/** patchDraft is the typed client's Patch (RealPodControl.PatchPod) as a json patch whose first test (added by the writer) is the UID. */
export function patchDraft(
  kind: TargetKind,
  meta: Pick<ObjectMeta, 'namespace' | 'name' | 'uid'>,
  ops: readonly JsonPatchOp[],
): MutationDraft {
  const preconditions = { uid: meta.uid, resourceVersion: null };
  return {
    ...NO_PAYLOAD,
    verb: 'Patch',
    target: targetOf(kind, meta),
    preconditions,
    patch: JSON.stringify(ops),
    patchType: 'json',
  };
}

/**
 * recordEventDraft is record.EventRecorder's Eventf(object, type, reason, message) of a recorder whose
 * EventSource component is `source`: the event goes to the involved object's namespace.
 */
export function recordEventDraft(
  source: string,
  involved: InvolvedObject,
  type: EventType,
  reason: string,
  message: string,
): MutationDraft {
  const { namespace = null, name, uid, resourceVersion = null } = involved.metadata;
  const involvedObject = {
    apiVersion: involved.apiVersion,
    kind: involved.kind,
    namespace,
    name,
    uid,
    resourceVersion,
    fieldPath: null,
  };
  const target: MutationTarget = {
    apiVersion: 'v1',
    kind: 'Event',
    namespace,
    name,
    resource: 'events',
    subresource: null,
  };
  const event = { involvedObject, type, reason, message, source: { component: source, host: null } };
  return { ...NO_PAYLOAD, verb: 'RecordEvent', target, preconditions: NO_PRECONDITIONS, event };
}

/**
 * withOutcomeEvent attaches recordEventDraft's event to a write (a Create or a Delete): the writer records it only
 * if that write is Applied, as RealPodControl calls Recorder.Eventf only after a call that succeeded.
 */
export function withOutcomeEvent(write: MutationDraft, event: MutationDraft): MutationDraft {
  return { ...write, event: event.event };
}

/**
 * updateStatusDraft is the typed client's UpdateStatus (updateReplicaSetStatus's for an RC): a PUT of the object
 * as the lister holds it with the new status, guarded by its uid and resourceVersion (upstream's PUT carries the
 * cached resourceVersion too). The whole object goes, not a bare status: the status subresource resets spec but
 * would apply metadata changes.
 */
export function updateStatusDraft(
  kind: TargetKind,
  object: { readonly metadata: ObjectMeta },
  status: unknown,
): MutationDraft {
  const { uid, resourceVersion = null } = object.metadata;
  const body = JSON.stringify({ ...object, apiVersion: kind.apiVersion, kind: kind.kind, status });
  return {
    ...NO_PAYLOAD,
    verb: 'UpdateStatus',
    target: targetOf(kind, object.metadata),
    preconditions: { uid, resourceVersion },
    body,
  };
}

/**
 * updateDraft is the typed client's Update (a PUT of the whole object, e.g. Endpoints(ns).Update), guarded by the
 * uid and the resourceVersion the lister holds: a write based on a stale read meets 409 Conflict.
 */
export function updateDraft(kind: TargetKind, object: { readonly metadata: ObjectMeta }): MutationDraft {
  const { uid, resourceVersion = null } = object.metadata;
  const body = JSON.stringify({ ...object, apiVersion: kind.apiVersion, kind: kind.kind });
  return {
    ...NO_PAYLOAD,
    verb: 'Update',
    target: targetOf(kind, object.metadata),
    preconditions: { uid, resourceVersion },
    body,
  };
}

/**
 * mergePatchDraft is the typed client's Patch with a strategic merge patch guarded by the object's uid and
 * resourceVersion (the writer puts both into the patch's metadata): upstream's PatchNodeTaints and the pod status
 * patches of node lifecycle and taint eviction, which meet 409 Conflict when the object changed since it was read.
 * `subresource` is `status` for a status patch.
 */
export function mergePatchDraft(
  kind: TargetKind,
  object: { readonly metadata: ObjectMeta },
  patch: object,
  subresource: 'status' | null = null,
): MutationDraft {
  const { uid, resourceVersion = null } = object.metadata;
  const target = { ...targetOf(kind, object.metadata), subresource };
  return {
    ...NO_PAYLOAD,
    verb: 'Patch',
    target,
    preconditions: { uid, resourceVersion },
    patch: JSON.stringify(patch),
    patchType: 'strategic-merge',
  };
}
