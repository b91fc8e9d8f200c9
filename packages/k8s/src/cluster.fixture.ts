import {
  objectNameOf,
  type Mutation,
  type MutationEvent,
  type MutationResult,
  SLOW_START_SKIPPED,
  slowStartBatchOf,
  tookEffect,
} from '@kcm-bus/runtime/mutation/index.ts';
import { objectKey } from '@kcm-bus/schemas/kinds.ts';
import type { ObjectEventType } from '@kcm-bus/schemas/watch-record.ts';
import {
  createObject,
  type KubeObject,
  patchObject,
  removeObject,
  updateObject,
  type Verdict,
} from './object-writes.fixture.ts';

/** Kinds names the resources (plural, as mutation targets name them) a cluster serves and their objects' type. */
export type Kinds = Readonly<Record<string, KubeObject>>;

/**
 * Cluster is the apiserver of the tests, in memory (client-go's fake clientset and its ObjectTracker): objects by
 * resource and `namespace/name`, the recorded events, and knobs to make writes fail (a quota on the resource
 * created, like FakePodControl.CreateLimit; an error for every write of one resource). createCalls counts the
 * Creates that reached the quota check.
 */
export type Cluster<K extends Kinds> = {
  readonly objects: { readonly [R in keyof K]: Map<string, K[R]> };
  readonly events: MutationEvent[];
  createLimit?: number | undefined;
  writeError?: { readonly resource: keyof K & string; readonly message: string } | undefined;
  createCalls: number;
  rv: number;
  /** populate is what the writer's PopulateToken does to a Secret, as the test's fake key holder does it. */
  populate?: ((secret: KubeObject) => KubeObject) | undefined;
};

/** ClusterWatchEvent is what a resource's watch topic would carry after a write: the new (or last) state and the previous one. */
export type ClusterWatchEvent<K extends Kinds> = {
  readonly [R in keyof K & string]: {
    readonly resource: R;
    readonly type: ObjectEventType;
    readonly object: K[R];
    readonly old: K[R] | undefined;
  };
}[keyof K & string];

/** newCluster holds these objects, by resource; resourceVersions it assigns start above 100. */
export function newCluster<K extends Kinds>(objects: { readonly [R in keyof K]: readonly K[R][] }): Cluster<K> {
  const lists = Object.entries(objects) as [string, readonly KubeObject[]][];
  const maps = Object.fromEntries(lists.map(([r, list]) => [r, new Map(list.map((o) => [objectKey(o.metadata), o]))]));
  return { objects: maps as Cluster<K>['objects'], events: [], createCalls: 0, rv: 100 };
}

/**
 * applyMutations plays the writer against the cluster at `now`: each mutation in order, with its preconditions,
 * giving the writer's result for each and the watch events the writes cause. The members of a slow-start run after
 * a batch with a failure are skipped, as the writer's SlowStartGate skips them.
 */
export function applyMutations<K extends Kinds>(
  c: Cluster<K>,
  mutations: readonly Mutation[],
  now: Date,
): { results: MutationResult[]; watch: ClusterWatchEvent<K>[] } {
  const results: MutationResult[] = [];
  const watch: ClusterWatchEvent<K>[] = [];
  const failedBatch = new Map<string, number>();
  for (const m of mutations) {
    const batch = m.slowStart === null ? 0 : slowStartBatchOf(m.slowStart.index);
    const skipped = m.slowStart !== null && (failedBatch.get(m.slowStart.run) ?? Infinity) < batch;
    const v: Verdict = skipped ? { outcome: 'Refused', status: 0, message: SLOW_START_SKIPPED } : apply(c, m, now);
    if (v.event !== undefined) watch.push({ resource: m.target.resource, ...v.event } as ClusterWatchEvent<K>);
    const result: MutationResult = {
      mutationId: m.id,
      controller: m.controller,
      verb: m.verb,
      target: m.target,
      outcome: v.outcome,
      status: v.status,
      reason: skipped ? SLOW_START_SKIPPED : null,
      message: v.message ?? '',
      name: v.name ?? m.target.name,
      resourceVersion: null,
      uid: null,
      attempts: 1,
      appliedAt: now.toISOString(),
      reconcileKey: m.reconcileKey,
    };
    results.push(result);
    // A run's members come in index order, so the first batch to fail is the lowest.
    if (m.slowStart !== null && !tookEffect(result) && !failedBatch.has(m.slowStart.run))
      failedBatch.set(m.slowStart.run, batch);
  }
  return { results, watch };
}

function apply<K extends Kinds>(c: Cluster<K>, m: Mutation, now: Date): Verdict {
  if (m.verb === 'RecordEvent') {
    c.events.push(m.event!);
    return { outcome: 'Applied', status: 201 };
  }
  const objects = objectsOf(c, m.target.resource);
  const writeError = c.writeError?.resource === m.target.resource ? c.writeError.message : undefined;
  const rv = (): string => String(++c.rv);
  if (m.verb === 'Create') {
    const name = objectNameOf(m);
    if (objects.has(objectKey({ namespace: m.target.namespace, name })))
      return { outcome: 'AlreadyDone', status: 409, name };
    c.createCalls++;
    return createObject(objects, m, { name, now, rv, writeError, createLimit: c.createLimit });
  }
  const key = objectKey(m.target);
  switch (m.verb) {
    case 'Delete':
      return removeObject(objects, key, m, writeError);
    case 'Patch':
      return patchObject(objects, key, m, writeError, rv);
    case 'Update':
    case 'UpdateStatus':
      return updateObject(objects, key, m, writeError, rv);
    case 'PopulateToken':
      return populateObject(c, objects, key, m, rv);
    case 'DeleteNamespaceContent':
    case 'FinalizeNamespace':
      throw new Error('the fake API deletes no namespace: the writer does, in its own tests');
  }
}

/** populateObject plays PopulateToken: the Secret of that version filled by c.populate; one since changed is left alone. */
function populateObject<K extends Kinds>(
  c: Cluster<K>,
  objects: Map<string, KubeObject>,
  key: string,
  m: Mutation,
  rv: () => string,
): Verdict {
  if (c.populate === undefined) throw new Error('the fake API has no populate: it cannot fill a token Secret');
  const secret = objects.get(key);
  if (
    secret?.metadata.uid !== m.preconditions.uid ||
    secret?.metadata.resourceVersion !== m.preconditions.resourceVersion
  )
    return { outcome: 'AlreadyDone', status: 0 };
  const filled = c.populate(secret);
  objects.set(key, { ...filled, metadata: { ...filled.metadata, resourceVersion: rv() } });
  return { outcome: 'Applied', status: 200 };
}

function objectsOf<K extends Kinds>(c: Cluster<K>, resource: string): Map<string, KubeObject> {
  const objects = (c.objects as Readonly<Record<string, Map<string, KubeObject>>>)[resource];
  if (objects === undefined) throw new Error(`the fake API serves no ${resource}`);
  return objects;
}

/** failuresOf keeps the results a reconciler is told about: Failed and Conflict. */
export function failuresOf(results: readonly MutationResult[]): MutationResult[] {
  return results.filter((r) => r.outcome === 'Failed' || r.outcome === 'Conflict');
}

/** changeObject replaces an object as another client would (bumping its resourceVersion) and returns the watch event it causes. */
export function changeObject<K extends Kinds, R extends keyof K & string>(
  c: Cluster<K>,
  resource: R,
  key: string,
  change: (o: K[R]) => K[R],
): ClusterWatchEvent<K> {
  const objects: Map<string, K[R]> = c.objects[resource];
  const old = objects.get(key)!;
  const next = change(old);
  const object = { ...next, metadata: { ...next.metadata, resourceVersion: String(++c.rv) } };
  objects.set(key, object);
  return { resource, type: 'Applied', object, old } as ClusterWatchEvent<K>;
}

/** objectNames lists the names of a resource's objects, sorted, for compact assertions. */
export function objectNames<K extends Kinds>(c: Cluster<K>, resource: keyof K & string): string[] {
  return [...c.objects[resource].values()].map((o) => o.metadata.name).sort();
}
