import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MemoryExpectations } from '../expectations/expectations.memory.ts';
import { FencedError } from '../expectations/expectations.ts';
import { KeyExpectations } from './key-expectations.ts';
import { HOLD_LIMIT_MS } from './read-your-writes.ts';
import type { GoneObject } from './gone-on-write.ts';
import { CREATE_EXPIRED, type MutationResult } from '../mutation/mutation-result.ts';
import type { Mutation, MutationCause } from '../mutation/mutation.ts';
import { aMutation, CLEAN_CONTENT_REPORT } from '../mutation/mutation.fixture.ts';
import { jsonLogger } from '../service/log.ts';
import { FakeClock } from '../workqueue/fake-clock.ts';
import { Workqueue } from '../workqueue/workqueue.ts';
import {
  Controller,
  ACTIVATED_TOPIC,
  TICK_TOPIC,
  type ControllerHooks,
  type InputEvent,
  type ObservedKeys,
  type ReconcileInput,
} from './controller.ts';
import type { Decision } from './reconciler.ts';

const KEY = 'ns/rc';
const cause = (offset: number): MutationCause => ({ topic: 'kcm.watch.pods', partition: 0, offset });

/** podApplied is a pod of KEY applied at this offset of kcm.watch.pods: live (past the restore) unless told. */
const podApplied = (offset: number, resourceVersion = '1', live = true): InputEvent => ({
  cause: cause(offset),
  type: 'Applied',
  key: KEY,
  object: {},
  resourceVersion,
  live,
});

/** until yields to the event loop until pred holds (in-memory parts only: no I/O, no timers), or fails. */
async function until(what: string, pred: () => boolean): Promise<void> {
  for (let i = 0; i < 1000 && !pred(); i++) await new Promise((resolve) => setImmediate(resolve));
  assert.ok(pred(), `never happened: ${what}`);
}

/**
 * harness runs a Controller with one worker over a scripted spec on a fake clock: `answer` decides each reconcile,
 * `inStores` what the stores show done; every reconcile's input is kept. syncs(n) waits for the n-th reconcile.
 */
function harness(
  answer: (input: ReconcileInput) => Decision,
  inStores: ObservedKeys = { creates: [], deletes: [] },
  o: {
    readonly maxRetries?: number;
    readonly owned?: (key: string) => boolean;
    readonly withoutExpectations?: boolean;
    readonly publishFails?: boolean;
    readonly ownsKey?: (key: string) => boolean;
    readonly inputsAt?: () => Date | undefined;
    readonly atCut?: boolean;
    readonly logs?: string[];
    readonly waitsForOwnWrites?: false;
    readonly evict?: ControllerHooks['evict'];
  } = {},
) {
  const clock = new FakeClock();
  const expectations = new MemoryExpectations({ clock, ttlMs: 600_000 });
  const owned = o.owned ?? (() => true);
  const keys: string[] = [];
  const inputs: ReconcileInput[] = [];
  const synced: string[] = [];
  const published: Mutation[] = [];
  const spec: ControllerHooks = {
    name: 'replicationcontroller-controller',
    onEvent: (_topic, event) => (o.atCut ? { enqueue: [], enqueueAtCut: [event.key] } : { enqueue: [event.key] }),
    reconcile: (key, input) => {
      synced.push(key);
      inputs.push(input);
      return answer(input);
    },
    observedInStores: () => inStores,
    activated: () => ({ enqueue: ['ns/n1', 'ns/elsewhere'] }),
    ...(o.ownsKey ? { ownsKey: o.ownsKey } : {}),
    ...(o.maxRetries === undefined ? {} : { maxRetries: o.maxRetries }),
    ...(o.waitsForOwnWrites === undefined ? {} : { waitsForOwnWrites: o.waitsForOwnWrites }),
    ...(o.evict ? { evict: o.evict } : {}),
  };
  const queue = new Workqueue<string>({ name: 'test', clock, scheduler: clock });
  const controller = new Controller(spec, {
    expectations: o.withoutExpectations ? undefined : expectations,
    queue,
    partitionOf: (key) => (keys.includes(key) ? keys.indexOf(key) : keys.push(key) - 1),
    watchPartitionOf: (key) => (keys.includes(key) ? keys.indexOf(key) : keys.push(key) - 1),
    partitionOwned: (n) => owned(keys[n] ?? ''),
    partitionSynced: () => true,
    partitionWatermark: () => o.inputsAt?.(),
    now: () => new Date(clock.now()),
    log: jsonLogger('test', { sink: (line) => void o.logs?.push(line) }),
    publish: (mutations) =>
      o.publishFails
        ? Promise.reject(new Error('MESSAGE_TOO_LARGE'))
        : Promise.resolve(void published.push(...mutations)),
  });
  const worker = controller.run(1);
  // The n-th reconcile ran, and its sync had the turns to finish (record, publish, requeue) before time moves on.
  const syncs = async (n: number): Promise<void> => {
    await until(`${n} reconciles`, () => inputs.length >= n);
    for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
  };
  const stop = async (): Promise<void> => {
    queue.shutDown();
    await worker;
  };
  return { controller, expectations, inputs, synced, published, queue, clock, syncs, stop };
}

const failedCreate = (name: string, outcome: MutationResult['outcome'] = 'Failed'): MutationResult => ({
  mutationId: 'm-1',
  controller: 'replicationcontroller-controller',
  verb: 'Create',
  outcome,
  status: 403,
  reason: 'Forbidden',
  message: 'no',
  target: { ...aMutation().target, namespace: 'ns', name: '' },
  name,
  resourceVersion: null,
  uid: null,
  attempts: 1,
  appliedAt: '2026-11-22T14:00:00Z',
  reconcileKey: KEY,
});

/** appliedStatus is the writer's Applied result of an UpdateStatus of the RC ns/rc, leaving it at resourceVersion. */
const appliedStatus = (write: Mutation, resourceVersion: string): MutationResult => ({
  ...failedCreate('rc'),
  mutationId: write.id,
  verb: 'UpdateStatus',
  outcome: 'Applied',
  resourceVersion,
  target: { ...write.target, namespace: 'ns', name: 'rc', resource: 'replicationcontrollers' },
});

describe('Controller: expectations a restore or a rebalance left behind', () => {
  it('given pending creations the stores already hold (restored records), when the key syncs, then they are lowered first and the sync sees expectations satisfied', async () => {
    const h = harness(() => ({ mutations: [] }), { creates: ['ns/a', 'ns/b'], deletes: [] });
    await h.expectations.set(KEY, { type: 'ExpectCreations', objectKeys: ['ns/a', 'ns/b'] });
    await h.controller.onEvent('kcm.watch.pods', podApplied(1, '1', false));
    await h.syncs(1);
    await h.stop();
    assert.deepEqual(
      h.inputs.map((i) => i.expectations),
      [{ satisfied: true, pendingCreates: [], pendingDeletes: [] }],
    );
  });

  it('given pending creations the stores do not hold yet, when the key syncs, then it waits for them', async () => {
    const h = harness(() => ({ mutations: [] }), { creates: ['ns/a'], deletes: [] });
    await h.expectations.set(KEY, { type: 'ExpectCreations', objectKeys: ['ns/a', 'ns/b'] });
    await h.controller.onEvent('kcm.watch.pods', podApplied(1));
    await h.syncs(1);
    await h.stop();
    assert.deepEqual(
      h.inputs.map((i) => i.expectations),
      [{ satisfied: false, pendingCreates: ['ns/b'], pendingDeletes: [] }],
    );
  });

  it('given a restored failed create, then its expectation is lowered but the failure is not reported again', async () => {
    const h = harness(() => ({ mutations: [] }));
    await h.expectations.set(KEY, { type: 'ExpectCreations', objectKeys: ['ns/a'] });
    await h.controller.onResult(failedCreate('a'), cause(9), false);
    h.clock.advance(1000);
    await h.stop();
    assert.equal(h.inputs.length, 0);
    assert.equal((await h.expectations.view(KEY)).satisfied, true);
  });

  it('given a live failed create, then its expectation is lowered and the next sync gets the failure', async () => {
    const h = harness(() => ({ mutations: [] }));
    await h.expectations.set(KEY, { type: 'ExpectCreations', objectKeys: ['ns/a'] });
    await h.controller.onResult(failedCreate('a'), cause(9), true);
    await h.syncs(1);
    await h.stop();
    assert.deepEqual(
      h.inputs.map((i) => [i.expectations.satisfied, i.failures.length, i.cause]),
      [[true, 1, [cause(9)]]],
    );
  });

  it('given a Create the writer refused as expired, then its expectation is lowered and nothing is reported (no event, no backoff step)', async () => {
    const h = harness(() => ({ mutations: [] }));
    await h.expectations.set(KEY, { type: 'ExpectCreations', objectKeys: ['ns/a'] });
    await h.controller.onResult({ ...failedCreate('a', 'Refused'), reason: CREATE_EXPIRED, status: 0 }, cause(9), true);
    assert.equal((await h.expectations.view(KEY)).satisfied, true);
    await h.controller.onEvent('kcm.state.pods', {
      cause: cause(10),
      type: 'Applied',
      key: KEY,
      object: {},
      resourceVersion: '1',
      live: true,
    });
    await h.syncs(1);
    await h.stop();
    assert.deepEqual(
      h.inputs.map((i) => i.failures.length),
      [0],
    );
  });

  it('given live failed attempts, then each steps the backoff once: the report runs at once, its error waits the next attempt (one AddRateLimited per failed sync)', async () => {
    const retry = aMutation({ id: 'm-1', verb: 'Create', reconcileKey: KEY });
    const h = harness((i) =>
      i.failures.length > 0 ? { mutations: [], error: 'FailedCreate' } : { mutations: [retry] },
    );
    for (const n of [1, 2]) {
      await h.controller.onResult(failedCreate('a'), cause(9), true);
      await h.syncs(2 * n - 1);
      await until(`backoff step ${n}`, () => h.queue.numRequeues(KEY) === n);
      h.clock.advance(5 * 2 ** (n - 1));
      await h.syncs(2 * n);
      await until('the next sync ran', () => h.queue.len() === 0);
    }
    await h.stop();
    assert.deepEqual(
      h.inputs.map((i) => i.failures.length),
      [1, 0, 1, 0],
    );
  });

  it('given a failed create whose run has another write in flight, then the key waits for that one and then its whole backoff (no held retry cuts it short)', async () => {
    const run = [
      aMutation({ id: 'm-1', verb: 'Create', reconcileKey: KEY }),
      aMutation({ id: 'm-2', verb: 'Create', reconcileKey: KEY }),
    ];
    const h = harness((i) =>
      i.failures.length > 0
        ? { mutations: [], error: 'FailedCreate' }
        : { mutations: h.inputs.length === 1 ? run : [] },
    );
    for (let n = 0; n < 8; n++) h.queue.addRateLimited(KEY);
    h.clock.advance(5);
    await until('the run published', () => h.published.length === 2);
    await h.controller.onResult(failedCreate('a'), cause(9), true);
    for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
    await h.controller.onResult(
      { ...failedCreate('b', 'Refused'), mutationId: 'm-2', reason: 'SlowStartSkipped' },
      cause(10),
      true,
    );
    await h.syncs(2);
    await until('the backoff stepped', () => h.queue.numRequeues(KEY) === 9);
    h.clock.advance(1000);
    for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
    assert.equal(h.inputs.length, 2, 'the ninth step waits 1280 ms');
    h.clock.advance(280);
    await h.syncs(3);
    await h.stop();
  });

  it('given a failed write reported by a sync that fails, then the log line names its mutation id (a lead for kcm-bus trace)', async () => {
    const logs: string[] = [];
    const h = harness(
      (input) => ({ mutations: [], ...(input.failures.length > 0 ? { error: 'FailedCreate' } : {}) }),
      undefined,
      { logs },
    );
    await h.controller.onResult(failedCreate('a'), cause(9), true);
    await h.syncs(1);
    await h.stop();
    const line = logs
      .map((l) => JSON.parse(l) as { msg: string; key?: string; mutationIds?: string[] })
      .find((l) => l.msg === 'sync error; requeued with backoff');
    assert.deepEqual([line?.key, line?.mutationIds], [KEY, ['m-1']]);
  });

  it('given a create that met AlreadyExists, then it stays expected until the store holds the pod', async () => {
    const h = harness(() => ({ mutations: [] }));
    await h.expectations.set(KEY, { type: 'ExpectCreations', objectKeys: ['ns/a'] });
    await h.controller.onResult(failedCreate('a', 'AlreadyDone'), cause(9), true);
    await h.stop();
    assert.deepEqual(await h.expectations.view(KEY), {
      satisfied: false,
      pendingCreates: ['ns/a'],
      pendingDeletes: [],
    });
  });
});

describe('Controller: attempts', () => {
  it('given a key synced again with no new input (a retry after an error), then the attempt counts up; a new input starts again at 0', async () => {
    const h = harness(() => ({ mutations: [], error: 'try again' }));
    await h.controller.onEvent('kcm.watch.pods', podApplied(1));
    await h.syncs(1);
    h.clock.advance(1000);
    await h.syncs(2);
    await h.controller.onEvent('kcm.watch.pods', podApplied(2));
    await h.syncs(3);
    await h.stop();
    assert.deepEqual(
      h.inputs.map((i) => [i.cause[0]?.offset, i.attempt]),
      [
        [1, 0],
        [1, 1],
        [2, 0],
      ],
    );
  });
});

describe('Controller: maxRetries (handleErr)', () => {
  it('given a key that keeps failing and maxRetries 2, then it is retried twice and then dropped out of the queue until its next event', async () => {
    const h = harness(() => ({ mutations: [], error: 'boom' }), undefined, {
      maxRetries: 2,
      withoutExpectations: true,
    });
    await h.controller.onEvent('kcm.watch.pods', podApplied(1));
    for (const n of [1, 2, 3]) {
      await h.syncs(n);
      await until(`sync ${n} done`, () => h.queue.numRequeues(KEY) === (n < 3 ? n : 0));
      h.clock.advance(1000);
    }
    for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
    assert.equal(h.inputs.length, 3, 'dropped after the second retry failed');
    await h.controller.onEvent('kcm.watch.pods', podApplied(2, '2'));
    await h.syncs(4);
    await h.stop();
  });
});

describe('Controller: a warning (HandleError and return nil)', () => {
  it('given a sync that warns (an invalid selector), then the warning is logged and the key is not requeued', async () => {
    const logs: string[] = [];
    const h = harness(() => ({ mutations: [], warning: 'error converting pod selector' }), undefined, {
      withoutExpectations: true,
      logs,
    });
    await h.controller.onEvent('kcm.watch.pods', podApplied(1));
    await h.syncs(1);
    for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
    h.clock.advance(60_000);
    for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
    await h.stop();
    assert.equal(h.inputs.length, 1, 'no requeue');
    assert.equal(h.queue.numRequeues(KEY), 0);
    assert.ok(
      logs.some((l) => l.includes('"level":"warn"') && l.includes('error converting pod selector') && l.includes(KEY)),
      logs.join('\n'),
    );
  });
});

describe('Controller: a key reads its own writes (ReadYourWrites)', () => {
  const RCS = 'kcm.watch.replicationcontrollers';
  const rcEvent = (offset: number, resourceVersion: string) => ({
    cause: { topic: RCS, partition: 0, offset },
    type: 'Applied' as const,
    key: KEY,
    object: {},
    resourceVersion,
    live: true,
  });
  const turns = async (): Promise<void> => {
    for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
  };

  it('given a sync that published a status write, then the key syncs again only after its result and its watch record at the written version', async () => {
    const write = aMutation({ id: 'w-1', verb: 'UpdateStatus', reconcileKey: KEY });
    const h = harness((input) => ({ mutations: input.cause[0]?.offset === 1 ? [write] : [] }));
    await h.controller.onEvent(RCS, rcEvent(1, '10'));
    await h.syncs(1);
    await h.controller.onEvent(RCS, rcEvent(2, '11'));
    await turns();
    assert.equal(h.inputs.length, 1, 'held while the write is in flight');
    const applied = appliedStatus(write, '12');
    await h.controller.onResult(applied, cause(3), true);
    await turns();
    assert.equal(h.inputs.length, 1, 'held until the watch shows version 12');
    await h.controller.onEvent(RCS, rcEvent(4, '12'));
    await h.syncs(2);
    await h.stop();
  });

  it('given a write whose result never comes, then the key syncs after HOLD_LIMIT_MS and the overdue write is logged', async () => {
    const write = aMutation({ id: 'w-lost', verb: 'UpdateStatus', reconcileKey: KEY });
    const logs: string[] = [];
    const h = harness((input) => ({ mutations: input.cause[0]?.offset === 1 ? [write] : [] }), undefined, { logs });
    await h.controller.onEvent(RCS, rcEvent(1, '10'));
    await h.syncs(1);
    await h.controller.onEvent(RCS, rcEvent(2, '11'));
    await turns();
    assert.equal(h.inputs.length, 1, 'held while the write is in flight');
    h.clock.advance(HOLD_LIMIT_MS);
    await h.syncs(2);
    await h.stop();
    const warned = logs.filter((l) => l.includes('"level":"warn"') && l.includes('never came'));
    assert.equal(warned.length, 1, logs.join('\n'));
    assert.ok(warned[0]!.includes('w-lost') && warned[0]!.includes(KEY), warned[0]);
  });

  it('given a write whose result brings a report, then the key syncs at once with it, and the next sync without it', async () => {
    const write = aMutation({ id: 'w-1', verb: 'DeleteNamespaceContent', reconcileKey: KEY });
    const report = { ...CLEAN_CONTENT_REPORT, estimateSeconds: 15 };
    const h = harness((input) => ({ mutations: input.cause[0]?.offset === 1 && !input.report ? [write] : [] }));
    await h.controller.onEvent(RCS, rcEvent(1, '10'));
    await h.syncs(1);
    const result = { ...appliedStatus(write, '12'), verb: write.verb, resourceVersion: null, contentReport: report };
    await h.controller.onResult(result, cause(2), true);
    await h.controller.onResult({ ...result, mutationId: 'restored' }, cause(3), false);
    await h.syncs(2);
    await h.controller.onEvent(RCS, rcEvent(4, '13'));
    await h.syncs(3);
    await h.stop();
    assert.deepEqual(
      h.inputs.map((i) => i.report?.mutationId),
      [undefined, 'w-1', undefined],
      "the restored report is none of the sync's",
    );
  });

  it('given a controller that does not wait for its own writes (node lifecycle), then the key syncs again while its write is unanswered and unread', async () => {
    const write = aMutation({ id: 'w-1', verb: 'UpdateStatus', reconcileKey: KEY });
    const h = harness((input) => ({ mutations: input.cause[0]?.offset === 1 ? [write] : [] }), undefined, {
      waitsForOwnWrites: false,
    });
    await h.controller.onEvent(RCS, rcEvent(1, '10'));
    await h.syncs(1);
    await h.controller.onEvent(RCS, rcEvent(2, '11'));
    await h.syncs(2);
    const applied = appliedStatus(write, '12');
    await h.controller.onResult(applied, cause(3), true);
    await h.controller.onEvent(RCS, rcEvent(4, '11'));
    await h.syncs(3);
    await h.stop();
  });

  it('given the first write of a partition no object record came on yet, then its watermark holds the key until the written record (no second create on an empty view)', async () => {
    const write = aMutation({
      id: 'w-1',
      verb: 'Create',
      reconcileKey: KEY,
      target: { ...aMutation().target, namespace: 'ns', name: 'rc', resource: 'endpoints' },
    });
    const h = harness((input) => ({ mutations: input.cause[0]?.offset === 1 ? [write] : [] }));
    h.controller.onWatermark('kcm.state.endpoints', 0, '10');
    await h.controller.onEvent(RCS, rcEvent(1, '9'));
    await h.syncs(1);
    const applied = {
      ...failedCreate('rc'),
      mutationId: 'w-1',
      outcome: 'Applied' as const,
      resourceVersion: '12',
      target: write.target,
    };
    await h.controller.onResult(applied, cause(3), true);
    await turns();
    assert.equal(h.inputs.length, 1, 'held: the partition was read at 10, the write is at 12');
    h.controller.onWatermark('kcm.state.endpoints', 0, '12');
    await h.syncs(2);
    await h.stop();
  });
});

describe('Controller: ownership, ticks and controllers without expectations', () => {
  const event = (key: string, offset = 1) => ({
    cause: cause(offset),
    type: 'Applied' as const,
    key,
    object: {},
    resourceVersion: '1',
    live: true,
  });

  it("given an event naming a key of a partition another member owns (a global input's event), then that key is never synced here", async () => {
    const h = harness(() => ({ mutations: [] }), undefined, { owned: (key) => key !== 'other/rc' });
    await h.controller.onEvent('kcm.watch.nodes', event('other/rc'));
    await h.controller.onEvent('kcm.watch.nodes', event(KEY, 2));
    await h.syncs(1);
    await h.stop();
    assert.deepEqual(h.synced, [KEY]);
  });

  it("given a tick, then its keys sync with the tick as their cause, so each tick's mutations get ids of their own", async () => {
    const h = harness(() => ({ mutations: [] }));
    void h.controller.tick([KEY], new Date(5000));
    await h.syncs(1);
    await h.stop();
    assert.deepEqual(
      h.inputs.map((i) => i.cause),
      [[{ topic: TICK_TOPIC, partition: 0, offset: 5000 }]],
    );
  });

  it('given onActivated, then the keys its handlers name sync with the activation as their cause, those of partitions owned elsewhere not at all', async () => {
    const h = harness(() => ({ mutations: [] }), undefined, { owned: (key) => key !== 'ns/elsewhere' });
    h.controller.onActivated(new Date(7000));
    await h.syncs(1);
    await h.stop();
    assert.deepEqual(h.synced, ['ns/n1']);
    assert.deepEqual(
      h.inputs.map((i) => i.cause),
      [[{ topic: ACTIVATED_TOPIC, partition: 0, offset: 7000 }]],
    );
  });

  it('given a tick, then it resolves only once its keys were synced, so the next period starts after the pass (wait.Until)', async () => {
    let tookUp = 0;
    const h = harness(() => ({ mutations: [] }));
    const tick = h.controller.tick([KEY], new Date(5000)).then(() => (tookUp = h.inputs.length));
    await tick;
    await h.stop();
    assert.equal(tookUp, 1);
  });

  it('given a tick whose keys no worker will take up (shutting down), then releaseTicks lets it go', async () => {
    const h = harness(() => ({ mutations: [] }));
    await h.stop();
    const tick = h.controller.tick([KEY], new Date(5000));
    h.controller.releaseTicks();
    await tick;
  });

  it('given a controller without expectations, then every sync reads them satisfied, and a failed result needs no store', async () => {
    const h = harness(() => ({ mutations: [] }), undefined, { withoutExpectations: true });
    await h.controller.onResult(failedCreate('a'), cause(9), true);
    h.clock.advance(1000);
    await h.syncs(1);
    await h.stop();
    assert.deepEqual(
      h.inputs.map((i) => [i.expectations.satisfied, i.failures.length]),
      [[true, 1]],
    );
  });

  it("given a result of a key another part of the same controller owns (node lifecycle's two parts), then this part ignores it", async () => {
    const h = harness(() => ({ mutations: [] }), undefined, {
      withoutExpectations: true,
      ownsKey: (key) => !key.includes('/'),
    });
    await h.controller.onResult(failedCreate('a'), cause(9), true);
    h.clock.advance(60_000);
    await h.controller.onResult({ ...failedCreate('a'), reconcileKey: 'node-1' }, cause(10), true);
    h.clock.advance(60_000);
    await h.syncs(1);
    await h.stop();
    assert.deepEqual(h.synced, ['node-1']);
  });

  it('given a live record whose key syncs at its cut, then the sync waits until the inputs are complete up to when the watcher saw it', async () => {
    let inputsAt: Date | undefined;
    const h = harness(() => ({ mutations: [] }), undefined, {
      withoutExpectations: true,
      atCut: true,
      inputsAt: () => inputsAt,
    });
    await h.controller.onEvent('kcm.watch.replicationcontrollers', { ...event(KEY), observedAt: new Date(9000) });
    h.clock.advance(1000);
    for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
    assert.equal(h.inputs.length, 0, 'the pods topic is not known complete up to the RC yet');
    inputsAt = new Date(9000);
    h.clock.advance(1000);
    await h.syncs(1);
    await h.stop();
  });

  it('given a sync that asks for a fresh read, then the next one waits until the inputs are complete up to that moment and reads fresh', async () => {
    let inputsAt: Date | undefined;
    const h = harness((i) => (i.fresh ? { mutations: [] } : { mutations: [], freshRead: true }), undefined, {
      withoutExpectations: true,
      inputsAt: () => inputsAt,
    });
    h.clock.advance(9000);
    const asked = h.clock.now();
    await h.controller.onEvent('kcm.watch.pods', event(KEY));
    await h.syncs(1);
    h.clock.advance(1000);
    for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
    assert.equal(h.inputs.length, 1, 'the inputs are not known complete up to the fresh read yet');
    inputsAt = new Date(asked);
    h.clock.advance(1000);
    await h.syncs(2);
    await h.stop();
    assert.deepEqual(
      h.inputs.map((i) => i.fresh),
      [false, true],
    );
  });

  it('given a controller without expectations whose reconcile sets some, then the sync fails loudly instead of pretending', async () => {
    const h = harness(
      () => ({ mutations: [], expectations: { type: 'ExpectCreations', objectKeys: ['ns/a'] } }),
      undefined,
      { withoutExpectations: true },
    );
    await h.controller.onEvent('kcm.watch.pods', event(KEY));
    await h.syncs(1);
    h.clock.advance(10);
    await h.syncs(2);
    await h.stop();
    assert.equal(h.published.length, 0);
  });

  it('given a sync whose publish is refused after it set expectations, then they are voided (the key does not wait out the TTL)', async () => {
    const create = aMutation({ id: 'c-1', verb: 'Create', reconcileKey: KEY });
    const h = harness(
      () => ({ mutations: [create], expectations: { type: 'ExpectCreations', objectKeys: ['ns/a'] } }),
      undefined,
      { publishFails: true },
    );
    await h.controller.onEvent('kcm.watch.pods', event(KEY));
    await h.syncs(1);
    await h.stop();
    assert.equal((await h.expectations.view(KEY)).satisfied, true);
  });
});

describe('Controller: a member fenced off its partition (a zombie that lost it without knowing yet)', () => {
  const fenced = (): Promise<never> =>
    Promise.reject(new FencedError("FENCED a newer member took the partition's fencing token"));

  it('given a sync whose expectations the store refuses as fenced, then nothing is published and the key is dropped, not retried', async () => {
    const logs: string[] = [];
    const create = aMutation({ id: 'c-1', verb: 'Create', reconcileKey: KEY });
    const h = harness(
      () => ({ mutations: [create], expectations: { type: 'ExpectCreations', objectKeys: ['ns/a'] } }),
      undefined,
      { logs },
    );
    h.expectations.set = fenced;
    await h.controller.onEvent('kcm.watch.pods', podApplied(1));
    await h.syncs(1);
    h.clock.advance(60_000);
    for (let i = 0; i < 50; i++) await new Promise((resolve) => setImmediate(resolve));
    await h.stop();
    assert.deepEqual([h.inputs.length, h.published.length], [1, 0]);
    assert.ok(
      logs.some((line) => line.includes('another member took over')),
      logs.join('\n'),
    );
  });

  it("given a live event that voids a key's expectations after a newer member took its partition's fencing token, then the event is still handled", async () => {
    const store = new MemoryExpectations({ clock: new FakeClock(), ttlMs: 600_000 });
    store.delete = fenced;
    const keyExpectations = new KeyExpectations('replicationcontroller-controller', store, undefined);
    await keyExpectations.deleteUnlessFenced(KEY);
    await assert.rejects(keyExpectations.delete(KEY), FencedError);
  });
});

describe('Controller: a key whose writes keep failing backs off, and holds back no other key (issue 41)', () => {
  it('given a status write that fails every time, then its attempts back off as upstream syncs do, and another key that changes syncs at once', async () => {
    let writes = 0;
    const h = harness(
      (input) =>
        input.failures.length > 0
          ? { mutations: [], error: 'failed to update status: not found', freshRead: true }
          : { mutations: [aMutation({ id: `w${writes++}`, verb: 'UpdateStatus', reconcileKey: KEY })] },
      { creates: [], deletes: [] },
      { withoutExpectations: true, inputsAt: () => new Date(h.clock.now()) },
    );
    const event = (key: string, offset: number): InputEvent => ({
      cause: cause(offset),
      type: 'Applied',
      key,
      object: {},
      resourceVersion: String(offset),
      live: true,
    });
    await h.controller.onEvent('kcm.watch.pods', event(KEY, 1));
    let otherSyncedAt: number | undefined;
    for (let ms = 0; ms < 60_000; ms += 100) {
      await new Promise((resolve) => setImmediate(resolve));
      for (const m of h.published.splice(0).filter((p) => p.reconcileKey === KEY))
        await h.controller.onResult(
          { ...failedCreate('x'), mutationId: m.id, verb: 'UpdateStatus', status: 404 },
          cause(2),
          true,
        );
      if (ms === 30_000) {
        await h.controller.onEvent('kcm.watch.pods', event('ns/other', 3));
        await until('the other key synced', () => h.synced.includes('ns/other'));
        otherSyncedAt = h.clock.now();
      }
      h.clock.advance(100);
    }
    await h.stop();
    // 5 ms doubling: about log2(60 s / 5 ms) = 13.6 attempts in a minute. The result that let the key through used
    // to let it write again before its failure was reported: one write per result, 600 in this minute.
    assert.ok(writes <= 16, `${writes} status writes in a minute`);
    assert.equal(otherSyncedAt, 30_000, 'the other key synced at once, without time passing');
  });
});

describe('Controller: a write that finds its object gone (issue 41)', () => {
  it('given an object write answered 404, then the store is told the object of that uid is gone, and the delete it hands back enqueues its owner; other answers tell nothing', async () => {
    const gone: GoneObject[] = [];
    const rc = {
      ...aMutation().target,
      apiVersion: 'v1',
      kind: 'ReplicationController',
      resource: 'replicationcontrollers',
      namespace: 'ns',
      name: 'rc',
    };
    const writes = [0, 1, 2].map((n) =>
      aMutation({
        id: `w${n}`,
        verb: 'UpdateStatus',
        target: rc,
        preconditions: { uid: 'u1', resourceVersion: '7' },
        reconcileKey: KEY,
      }),
    );
    const h = harness(() => ({ mutations: writes }), undefined, {
      withoutExpectations: true,
      evict: (g) => (gone.push(g), { enqueue: ['ns/owner'] }),
    });
    await h.controller.onEvent('kcm.watch.pods', podApplied(1));
    await h.syncs(1);
    const answer = (id: string, status: number, outcome: MutationResult['outcome']): MutationResult => ({
      ...failedCreate('rc'),
      mutationId: id,
      verb: 'UpdateStatus',
      status,
      outcome,
    });
    await h.controller.onResult(answer('w0', 409, 'Conflict'), cause(2), true);
    await h.controller.onResult(answer('w1', 500, 'Failed'), cause(3), true);
    await h.controller.onResult(answer('w2', 404, 'Failed'), cause(4), true);
    await until('the owner synced', () => h.synced.includes('ns/owner'));
    await h.stop();
    assert.deepEqual(gone, [{ resource: 'replicationcontrollers', key: 'ns/rc', uid: 'u1' }]);
  });
});
