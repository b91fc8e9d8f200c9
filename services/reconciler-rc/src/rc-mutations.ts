import { mutationId } from '@kcm-bus/runtime/mutation/mutation-id.ts';
import type { EventType, Mutation, MutationCause, MutationTarget } from '@kcm-bus/runtime/mutation/mutation.ts';
import type { JsonPatchOp } from './claim-pods.ts';
import { CONTROLLER_NAME, EVENT_SOURCE, type Pod, RC_API_VERSION, RC_KIND, type ReplicationController, type ReplicationControllerStatus } from './core-v1.ts';
import { getPodFromTemplate } from './pod-from-template.ts';

/** MutationDraft is a mutation before it has its id, controller, cause and time: what the builders below return. */
export type MutationDraft = Pick<Mutation, 'verb' | 'target' | 'preconditions' | 'body' | 'patch' | 'patchType' | 'event'>;

/**
 * MutationLog collects one reconcile's mutations in order and gives each its deterministic id
 * (mutationId(controller, key, cause, attempt, seq = position)), so a replay of the same input names the same pods, and
 * its reconcileKey, so the results come back to this key's expectations.
 */
export type MutationLog = {
  readonly push: (draft: MutationDraft) => Mutation;
  readonly mutations: () => readonly Mutation[];
};

/** mutationLog starts an empty MutationLog for the attempt-th sync of `key` from `cause` at `now` (createdAt). */
export function mutationLog(key: string, cause: readonly MutationCause[], now: Date, attempt = 0): MutationLog {
  const out: Mutation[] = [];
  const createdAt = now.toISOString();
  const push = (draft: MutationDraft): Mutation => {
    const id = mutationId({ controller: CONTROLLER_NAME, key, cause, attempt, seq: out.length });
    const m: Mutation = { ...draft, id, controller: CONTROLLER_NAME, fieldManager: null, cause, createdAt, reconcileKey: key };
    out.push(m);
    return m;
  };
  return { push, mutations: () => [...out] };
}

const NO_PRECONDITIONS = { uid: null, resourceVersion: null };
const NO_PAYLOAD = { body: null, patch: null, patchType: null, event: null };

function podTarget(namespace: string | undefined, name: string): MutationTarget {
  return { apiVersion: 'v1', kind: 'Pod', namespace: namespace ?? null, name, resource: 'pods', subresource: null };
}

/** createPodDraft is RealPodControl.CreatePods: a generateName-only pod from the RC's template (the writer names it). */
export function createPodDraft(rc: ReplicationController): MutationDraft {
  const body = JSON.stringify(getPodFromTemplate(rc));
  return { ...NO_PAYLOAD, verb: 'Create', target: podTarget(rc.metadata.namespace, ''), preconditions: NO_PRECONDITIONS, body };
}

/** deletePodDraft is RealPodControl.DeletePod, with the pod's UID as precondition so a recreated namesake survives. */
export function deletePodDraft(pod: Pod): MutationDraft {
  const preconditions = { uid: pod.metadata.uid, resourceVersion: null };
  return { ...NO_PAYLOAD, verb: 'Delete', target: podTarget(pod.metadata.namespace, pod.metadata.name), preconditions };
}

/** patchPodDraft is RealPodControl.PatchPod as a json patch whose first test (added by the writer) is the pod's UID. */
export function patchPodDraft(pod: Pod, ops: readonly JsonPatchOp[]): MutationDraft {
  const preconditions = { uid: pod.metadata.uid, resourceVersion: null };
  const target = podTarget(pod.metadata.namespace, pod.metadata.name);
  return { ...NO_PAYLOAD, verb: 'Patch', target, preconditions, patch: JSON.stringify(ops), patchType: 'json' };
}

/** recordEventDraft is the recorder's Eventf(rc, type, reason, message) with source component replication-controller. */
export function recordEventDraft(rc: ReplicationController, type: EventType, reason: string, message: string): MutationDraft {
  const { namespace = null, name, uid, resourceVersion = null } = rc.metadata;
  const involvedObject = { apiVersion: RC_API_VERSION, kind: RC_KIND, namespace, name, uid, resourceVersion, fieldPath: null };
  const target: MutationTarget = { apiVersion: 'v1', kind: 'Event', namespace, name, resource: 'events', subresource: null };
  const event = { involvedObject, type, reason, message, source: { component: EVENT_SOURCE, host: null } };
  return { ...NO_PAYLOAD, verb: 'RecordEvent', target, preconditions: NO_PRECONDITIONS, event };
}

/**
 * updateStatusDraft is updateReplicaSetStatus's UpdateStatus: a PUT of the RC as the lister holds it with the new
 * status, guarded by its uid and resourceVersion (upstream's PUT carries the cached resourceVersion too). The
 * whole object goes, not a bare status: the status subresource resets spec but would apply metadata changes.
 */
export function updateStatusDraft(rc: ReplicationController, status: ReplicationControllerStatus): MutationDraft {
  const { namespace, name, uid, resourceVersion = null } = rc.metadata;
  const target: MutationTarget = { apiVersion: RC_API_VERSION, kind: RC_KIND, namespace: namespace ?? null, name, resource: 'replicationcontrollers', subresource: null };
  const body = JSON.stringify({ ...rc, apiVersion: RC_API_VERSION, kind: RC_KIND, status });
  return { ...NO_PAYLOAD, verb: 'UpdateStatus', target, preconditions: { uid, resourceVersion }, body };
}
