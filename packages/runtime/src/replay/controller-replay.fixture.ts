/*
 * Test fixture: a small ReplicaSet-like controller and a live run of it under the runtime's Controller, recorded as
 * history, so a replay of that history can be held against what the live Controller published.
 */
import { MemoryExpectations } from '../expectations/expectations.memory.ts';
import { mutationId } from '../mutation/mutation-id.ts';
import type { MutationResult } from '../mutation/mutation-result.ts';
import type { Mutation, MutationVerb } from '../mutation/mutation.ts';
import { aMutation, aRecordEvent, podTarget } from '../mutation/mutation.fixture.ts';
import { Controller, type ControllerHooks, type ReconcileInput } from '../controller/controller.ts';
import type { Decision } from '../controller/reconciler.ts';
import { jsonLogger } from '../service/log.ts';
import { FakeClock } from '../workqueue/fake-clock.ts';
import { Workqueue } from '../workqueue/workqueue.ts';
import type { ObjectEventType } from '@kcm-bus/schemas/watch-record.ts';
import type { TimedDecision, ReplayInput } from './replay-input.ts';

const CONTROLLER = 'replicationcontroller-controller';
const SETS = 'kcm.state.replicationcontrollers';
const PODS = 'kcm.state.pods';
const RESULTS = 'kcm.mutation-results';

/**
 * scriptedSpec is a set controller: set `ns/a` with replicas n wants n pods `ns/a-<id>`, created or deleted with
 * expectations; a failed write is reported with an event and an error (retried with backoff); replicas -1 is a set
 * that always fails, dropped after maxRetries 2. Every pod event enqueues its set and observes it.
 */
export function scriptedSpec(): ControllerHooks {
  const want = new Map<string, number>();
  const pods = new Map<string, Set<string>>();
  const podsOf = (set: string): Set<string> => pods.get(set) ?? pods.set(set, new Set()).get(set)!;
  return {
    name: CONTROLLER,
    maxRetries: 2,
    onEvent: (topic, e) => {
      if (topic === SETS) {
        if (e.type === 'Applied') want.set(e.key, (e.object as { replicas: number }).replicas);
        else want.delete(e.key);
        return { enqueue: [e.key] };
      }
      const set = e.key.slice(0, e.key.lastIndexOf('-'));
      if (e.type === 'Applied') podsOf(set).add(e.key);
      else podsOf(set).delete(e.key);
      return {
        enqueue: [set],
        observed: [{ kind: e.type === 'Applied' ? 'creation' : 'deletion', key: set, objectKey: e.key }],
      };
    },
    observedInStores: (key, pending) => ({
      creates: pending.pendingCreates.filter((k) => podsOf(key).has(k)),
      deletes: pending.pendingDeletes.filter((k) => !podsOf(key).has(k)),
    }),
    reconcile: (key, input) => decide(key, input, want.get(key), [...podsOf(key)].sort()),
  };
}

function decide(key: string, input: ReconcileInput, want: number | undefined, have: readonly string[]): Decision {
  const write = (verb: MutationVerb, seq: number, pod?: string): Mutation => {
    const id = mutationId({ controller: CONTROLLER, key, cause: input.cause, attempt: input.attempt, seq });
    const target = { ...podTarget, namespace: 'ns', name: (pod ?? `${key}-${id.slice(0, 5)}`).slice('ns/'.length) };
    const common = { id, reconcileKey: key, cause: input.cause };
    return verb === 'RecordEvent' ? aRecordEvent(undefined, common) : aMutation({ ...common, verb, target });
  };
  if (input.failures.length > 0 || want === -1) return { mutations: [write('RecordEvent', 0)], error: 'FailedCreate' };
  if (want === undefined || !input.expectations.satisfied || have.length === want) return { mutations: [] };
  const mutations =
    have.length < want
      ? Array.from({ length: want - have.length }, (_, seq) => write('Create', seq))
      : have.slice(want).map((pod, seq) => write('Delete', seq, pod));
  const objectKeys = mutations.map((m) => `ns/${m.target.name}`);
  return { mutations, expectations: { type: have.length < want ? 'ExpectCreations' : 'ExpectDeletions', objectKeys } };
}

/** setRecord is set `ns/<name>` with `replicas`, read at `at` from offset `offset` of the sets topic. */
export function setRecord(at: number, name: string, replicas: number, offset: number): ReplayInput {
  const cause = { topic: SETS, partition: 0, offset };
  const event = {
    cause,
    type: 'Applied',
    key: `ns/${name}`,
    object: { replicas },
    resourceVersion: String(offset),
    live: true,
  } as const;
  return { at, topic: SETS, partition: 0, kind: 'event', event };
}

/** LiveRun is what a live Controller published, each sync's mutations at its time, and every record it read. */
export type LiveRun = { readonly published: readonly TimedDecision[]; readonly history: readonly ReplayInput[] };

/**
 * runLive drives a Controller live, as a service runs it (a plain Workqueue, expectations in memory), on a fake clock
 * up to `end`: the script's records, and a scripted cluster that answers each write 20 ms after it was published (the
 * first create of set b fails with 403) and shows each applied pod write on the pods topic 10 ms later. Each record
 * is handed over as a consumer does, the worker taking up keys as soon as they are added; every record the
 * Controller read, results included, is kept as history.
 */
export async function runLive(script: readonly ReplayInput[], end: number): Promise<LiveRun> {
  const clock = new FakeClock(0);
  const queue = new Workqueue<string>({ name: 'live', clock, scheduler: clock });
  const cluster = scriptedCluster(clock);
  const published: TimedDecision[] = [];
  const publish = async (mutations: readonly Mutation[]): Promise<void> => {
    if (mutations.length > 0) published.push({ at: clock.now(), key: mutations[0]!.reconcileKey ?? '', mutations });
    cluster.answer(mutations);
  };
  const controller = new Controller(scriptedSpec(), {
    expectations: new MemoryExpectations({ clock, ttlMs: 300_000 }),
    queue,
    publish,
    log: jsonLogger('live', { sink: () => undefined }),
    partitionOf: () => 0,
    watchPartitionOf: () => 0,
    partitionOwned: () => true,
    partitionSynced: () => true,
    partitionWatermark: () => undefined,
    now: () => new Date(clock.now()),
  });
  const workers = controller.run(1);
  const history = await deliver(controller, { queue, clock, coming: [...script], more: cluster.coming, end });
  queue.shutDown();
  await workers;
  return { published, history };
}

type Delivery = {
  readonly queue: Workqueue<string>;
  readonly clock: FakeClock;
  readonly coming: ReplayInput[];
  readonly more: ReplayInput[];
  readonly end: number;
};

/**
 * deliver hands each record to the Controller at its time, what fell due before it done first (timers due at the
 * same time fire first), until `end`; `more` are records the cluster adds meanwhile.
 */
async function deliver(controller: Controller, d: Delivery): Promise<ReplayInput[]> {
  const history: ReplayInput[] = [];
  for (;;) {
    d.coming.push(...d.more.splice(0));
    d.coming.sort((a, b) => a.at - b.at);
    const next = d.coming[0];
    const timer = d.clock.nextTimerAt() ?? Infinity;
    if (Math.min(next?.at ?? Infinity, timer) > d.end) return history;
    d.clock.advance(Math.min(next?.at ?? Infinity, timer) - d.clock.now());
    if (next !== undefined && next.at < timer) {
      history.push(d.coming.shift()!);
      if (next.kind === 'event') await controller.onEvent(next.topic, next.event);
      if (next.kind === 'result') await controller.onResult(next.result, next.cause, true);
    }
    do await new Promise((resolve) => setImmediate(resolve));
    while (d.queue.len() > 0);
  }
}

/** scriptedCluster answers writes as the writer and the watcher would: a result, then the pod's record. */
function scriptedCluster(clock: FakeClock): {
  readonly coming: ReplayInput[];
  readonly answer: (mutations: readonly Mutation[]) => void;
} {
  const coming: ReplayInput[] = [];
  let offset = 0;
  let failedB = false;
  const answer = (mutations: readonly Mutation[]): void => {
    for (const m of mutations) {
      const fails = m.verb === 'Create' && m.target.name.startsWith('b-') && !failedB;
      failedB ||= fails;
      const rv = fails || m.verb === 'RecordEvent' ? null : String(1000 + offset);
      const cause = { topic: RESULTS, partition: 0, offset: offset++ };
      coming.push({
        at: clock.now() + 20,
        topic: RESULTS,
        partition: 0,
        kind: 'result',
        result: resultOf(m, fails, rv),
        cause,
      });
      if (rv === null) continue;
      const type: ObjectEventType = m.verb === 'Create' ? 'Applied' : 'Deleted';
      const seen = { topic: PODS, partition: 0, offset: offset++ };
      const event = { cause: seen, type, key: `ns/${m.target.name}`, object: {}, resourceVersion: rv, live: true };
      coming.push({ at: clock.now() + 30, topic: PODS, partition: 0, kind: 'event', event });
    }
  };
  return { coming, answer };
}

function resultOf(m: Mutation, fails: boolean, rv: string | null): MutationResult {
  return {
    mutationId: m.id,
    controller: m.controller,
    verb: m.verb,
    target: m.target,
    outcome: fails ? 'Failed' : 'Applied',
    status: fails ? 403 : 200,
    reason: fails ? 'Forbidden' : null,
    message: '',
    name: m.target.name,
    resourceVersion: rv,
    uid: null,
    attempts: 1,
    appliedAt: '',
    reconcileKey: m.reconcileKey,
  };
}
