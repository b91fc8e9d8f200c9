import { generatedName } from '@kcm-bus/runtime/mutation/mutation-id.ts';
import type { Mutation, MutationEvent } from '@kcm-bus/runtime/mutation/mutation.ts';
import type { MutationResult, Outcome } from '@kcm-bus/runtime/mutation/mutation-result.ts';
import type { Lister } from '@kcm-bus/runtime/reconcile/reconciler.ts';
import type { JsonPatchOp } from './claim-pods.ts';
import type { Pod, ReplicationController } from './core-v1.ts';
import { applyJsonPatch, JsonPatchError } from './json-patch.fixture.ts';
import { byKey, listerOf, POD_INDEXERS } from './rc.fixture.ts';

/** PodWatchEvent is what the pods topic would carry after a write: the new (or last) state and the previous one. */
export type PodWatchEvent = { readonly type: 'Applied' | 'Deleted'; readonly pod: Pod; readonly old: Pod | undefined };

/**
 * Cluster is the apiserver of the tests, in memory: RCs and pods by key, the recorded events, and knobs to make
 * writes fail (a pod quota like FakePodControl.CreateLimit, an error for every pod write).
 */
export type Cluster = {
  readonly rcs: Map<string, ReplicationController>;
  readonly pods: Map<string, Pod>;
  readonly events: MutationEvent[];
  createLimit?: number | undefined;
  podWriteError?: string | undefined;
  createCalls: number;
  rv: number;
};

/** newCluster holds these objects. */
export function newCluster(rcs: readonly ReplicationController[], pods: readonly Pod[] = []): Cluster {
  return { rcs: byKey(rcs), pods: byKey(pods), events: [], createCalls: 0, rv: 100 };
}

/** listers are the read-only views reconcileRc gets, with the pods indexes it needs. */
export function listers(c: Cluster): { rcs: Lister<ReplicationController>; pods: Lister<Pod> } {
  return { rcs: listerOf(c.rcs), pods: listerOf(c.pods, POD_INDEXERS) };
}

type Verdict = { readonly outcome: Outcome; readonly status: number; readonly message?: string; readonly name?: string; readonly event?: PodWatchEvent };

/**
 * applyMutations plays the writer against the cluster at `now`: each mutation in order, with its preconditions,
 * giving the writer's result for each and the pod watch events the writes cause.
 */
export function applyMutations(c: Cluster, mutations: readonly Mutation[], now: Date): { results: MutationResult[]; watch: PodWatchEvent[] } {
  const results: MutationResult[] = [];
  const watch: PodWatchEvent[] = [];
  for (const m of mutations) {
    const v = apply(c, m, now);
    if (v.event !== undefined) watch.push(v.event);
    results.push({
      mutationId: m.id, controller: m.controller, verb: m.verb, target: m.target, outcome: v.outcome, status: v.status,
      reason: null, message: v.message ?? '', name: v.name ?? m.target.name, resourceVersion: null, uid: null, attempts: 1,
      appliedAt: now.toISOString(), reconcileKey: m.reconcileKey,
    });
  }
  return { results, watch };
}

function apply(c: Cluster, m: Mutation, now: Date): Verdict {
  const key = `${m.target.namespace}/${m.target.name}`;
  switch (m.verb) {
    case 'Create': return create(c, m, now);
    case 'Delete': return remove(c, key, m);
    case 'Patch': return patch(c, key, m);
    case 'UpdateStatus': return updateStatus(c, key, m);
    case 'RecordEvent': c.events.push(m.event!); return { outcome: 'Applied', status: 201 };
    case 'Update': throw new Error('the RC controller never sends Update');
  }
}

function create(c: Cluster, m: Mutation, now: Date): Verdict {
  const body = JSON.parse(m.body!) as Pod & { metadata: { generateName: string } };
  const name = generatedName(body.metadata.generateName, m.id);
  const key = `${m.target.namespace}/${name}`;
  if (c.pods.has(key)) return { outcome: 'AlreadyDone', status: 409, name };
  c.createCalls++;
  if (c.podWriteError !== undefined) return { outcome: 'Failed', status: 500, message: c.podWriteError, name };
  if (c.createLimit !== undefined && c.pods.size >= c.createLimit) {
    return { outcome: 'Failed', status: 403, message: `pods "${name}" is forbidden: exceeded quota: pods`, name };
  }
  const pod: Pod = { ...body, metadata: { ...body.metadata, name, uid: `uid-${name}`, resourceVersion: String(++c.rv), creationTimestamp: now.toISOString() } };
  c.pods.set(key, pod);
  return { outcome: 'Applied', status: 201, name, event: { type: 'Applied', pod, old: undefined } };
}

function remove(c: Cluster, key: string, m: Mutation): Verdict {
  const pod = c.pods.get(key);
  if (pod === undefined) return { outcome: 'AlreadyDone', status: 404 };
  if (pod.metadata.uid !== m.preconditions.uid) return { outcome: 'Conflict', status: 409, message: 'Precondition failed: UID in precondition' };
  if (c.podWriteError !== undefined) return { outcome: 'Failed', status: 500, message: c.podWriteError };
  c.pods.delete(key);
  return { outcome: 'Applied', status: 200, event: { type: 'Deleted', pod, old: pod } };
}

/** patch applies a json patch as the apiserver does, serving the result as JSON would (an empty list omitted). */
function patch(c: Cluster, key: string, m: Mutation): Verdict {
  const pod = c.pods.get(key);
  if (pod === undefined) return { outcome: 'Failed', status: 404, message: `pods "${m.target.name}" not found` };
  if (c.podWriteError !== undefined) return { outcome: 'Failed', status: 500, message: c.podWriteError };
  const ops: JsonPatchOp[] = [{ op: 'test', path: '/metadata/uid', value: m.preconditions.uid }, ...JSON.parse(m.patch!)];
  let next: Pod;
  try {
    next = applyJsonPatch(pod, ops);
  } catch (err) {
    if (err instanceof JsonPatchError) return { outcome: 'Conflict', status: 422, message: err.message };
    throw err;
  }
  if ((next.metadata.ownerReferences ?? []).filter((r) => r.controller === true).length > 1) {
    return { outcome: 'Failed', status: 422, message: 'metadata.ownerReferences: Invalid value: Only one reference can have Controller set to true' };
  }
  const { ownerReferences, ...meta } = next.metadata;
  const served = ownerReferences === undefined || ownerReferences === null || ownerReferences.length === 0 ? meta : { ...meta, ownerReferences };
  const patched = { ...next, metadata: { ...served, resourceVersion: String(++c.rv) } };
  c.pods.set(key, patched);
  return { outcome: 'Applied', status: 200, event: { type: 'Applied', pod: patched, old: pod } };
}

function updateStatus(c: Cluster, key: string, m: Mutation): Verdict {
  const rc = c.rcs.get(key);
  if (rc === undefined) return { outcome: 'Failed', status: 404 };
  if (rc.metadata.resourceVersion !== m.preconditions.resourceVersion) return { outcome: 'Conflict', status: 409, message: 'the object has been modified' };
  const { status } = JSON.parse(m.body!) as ReplicationController;
  c.rcs.set(key, { ...rc, metadata: { ...rc.metadata, resourceVersion: String(++c.rv) }, ...(status === undefined ? {} : { status }) });
  return { outcome: 'Applied', status: 200 };
}

/** failuresOf keeps the results a reconciler is told about: Failed and Conflict. */
export function failuresOf(results: readonly MutationResult[]): MutationResult[] {
  return results.filter((r) => r.outcome === 'Failed' || r.outcome === 'Conflict');
}

/** podChange replaces a pod in the cluster (bumping its resourceVersion) and returns the watch event it causes. */
export function podChange(c: Cluster, key: string, change: (p: Pod) => Pod): PodWatchEvent {
  const old = c.pods.get(key)!;
  const next = change(old);
  const pod = { ...next, metadata: { ...next.metadata, resourceVersion: String(++c.rv) } };
  c.pods.set(key, pod);
  return { type: 'Applied', pod, old };
}

/** podNames lists the names of the cluster's pods, sorted, for compact assertions. */
export function podNames(c: Cluster): string[] {
  return [...c.pods.values()].map((p) => p.metadata.name).sort();
}
