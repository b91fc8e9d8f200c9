import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Mutation } from '../mutation/mutation.ts';
import { aMutation } from '../mutation/mutation.fixture.ts';
import type { ControllerHooks, InputEvent } from '../controller/controller-types.ts';
import { ControllerReplay } from './controller-replay.ts';
import { runLive, scriptedSpec, setRecord } from './controller-replay.fixture.ts';
import type { TimedDecision, ReplayInput } from './replay-input.ts';

/** writes lists what decisions published, one line per mutation: time, id, verb, target. */
function writes(decisions: readonly TimedDecision[], withTimes = true): string[] {
  const line = (at: number, m: Mutation): string =>
    `${withTimes ? `${at} ` : ''}${m.id} ${m.verb} ${m.target.resource} ${m.target.namespace}/${m.target.name}`;
  return decisions.flatMap((d) => d.mutations.map((m) => line(d.at, m)));
}

/** SCRIPT: set a scaled to 3 then 1, set b to 2 (its first create fails: retried with backoff), set broken (dropped after maxRetries). */
const SCRIPT = [
  setRecord(1000, 'a', 3, 0),
  setRecord(1500, 'b', 2, 1),
  setRecord(2500, 'a', 1, 2),
  setRecord(3000, 'broken', -1, 3),
];
const END = 6000;

describe("ControllerReplay: the runtime's own Controller over recorded history", () => {
  it('given a window recorded from a live Controller, when replayed record by record, then the same mutations (id, verb, target) at the same times', async () => {
    const live = await runLive(SCRIPT, END);
    const replay = new ControllerReplay({
      from: 0,
      to: END,
      partitions: new Map(),
      partitioned: [],
      expectationsTtlMs: 300_000,
      batchMs: 0,
    });
    const replayed = writes(await replay.run(scriptedSpec(), live.history));
    assert.deepEqual(replayed, writes(live.published));
    // The script did what it is for: a failed create retried with backoff, deletes, a key dropped after maxRetries.
    assert.ok(live.history.some((i) => i.kind === 'result' && i.result.outcome === 'Failed'));
    assert.equal(replayed.filter((w) => w.includes(' Delete ')).length, 2);
    assert.equal(
      live.published.filter((d) => d.key === 'ns/broken').length,
      3,
      'the first sync and maxRetries 2 retries',
    );
  });

  it('given the same window replayed in consumer batches (BATCH_MS), then it decides the same mutations by id, verb and target', async () => {
    const live = await runLive(SCRIPT, END);
    const replay = new ControllerReplay({
      from: 0,
      to: END,
      partitions: new Map(),
      partitioned: [],
      expectationsTtlMs: 300_000,
    });
    assert.deepEqual(
      writes(await replay.run(scriptedSpec(), live.history), false).sort(),
      writes(live.published, false).sort(),
    );
  });
});

const TOPIC = 'kcm.state.endpoints';
let offset = 0;

function event(at: number, key: string, observedAt?: number): ReplayInput {
  const seen = observedAt === undefined ? {} : { observedAt: new Date(observedAt) };
  const e: InputEvent = {
    cause: { topic: TOPIC, partition: 0, offset: offset++ },
    type: 'Applied',
    key,
    object: {},
    resourceVersion: '1',
    live: true,
    ...seen,
  };
  return { at, topic: TOPIC, partition: 0, kind: 'event', event: e };
}

/** ensurer: key `ns/svc` wants Endpoints `ns/svc` to exist and creates it while its store lacks it; every event enqueues it. */
function ensurer(): ControllerHooks {
  const store = new Set<string>();
  const target = { ...aMutation().target, resource: 'endpoints', namespace: 'ns', name: 'svc' };
  const create = aMutation({ verb: 'Create', controller: 'endpoints-controller', target, reconcileKey: 'ns/svc' });
  return {
    name: 'endpoints-controller',
    onEvent: (_topic, e) => (e.type === 'Applied' ? store.add(e.key) : store.delete(e.key), { enqueue: ['ns/svc'] }),
    reconcile: (key) => ({ mutations: store.has(key) ? [] : [create] }),
  };
}

async function decidedAt(
  hooks: ControllerHooks,
  history: readonly ReplayInput[],
  partitioned: readonly string[] = [],
): Promise<number[]> {
  const replay = new ControllerReplay({ from: 0, to: 3000, partitions: new Map(), partitioned });
  return (await replay.run(hooks, history)).filter((d) => d.mutations.length > 0).map((d) => d.at);
}

describe('ControllerReplay: a write no recorded result answers', () => {
  it('given a sync that created an object, then the key waits for the history to show it before deciding again (no second create)', async () => {
    // Another event at 1020 would sync the key before the deployed controller's create shows at 1050.
    const history = [event(1000, 'ns/other'), event(1020, 'ns/other'), event(1050, 'ns/svc'), event(1100, 'ns/other')];
    assert.deepEqual(await decidedAt(ensurer(), history), [1010]);
  });

  it('given a write the history never shows (the deployed controller did not make it), then the key decides again after the hold', async () => {
    assert.deepEqual(await decidedAt(ensurer(), [event(1000, 'ns/other'), event(1020, 'ns/other')]), [1010, 2010]);
  });
});

describe('ControllerReplay: batches, cuts and ticks', () => {
  it('given a burst of records within BATCH_MS, then the key syncs once, BATCH_MS after the first, on all of them', async () => {
    let applied = 0;
    const read: number[] = [];
    const hooks: ControllerHooks = {
      name: 'c',
      onEvent: () => (applied++, { enqueue: ['ns/svc'] }),
      reconcile: () => (read.push(applied), { mutations: [aMutation()] }),
    };
    assert.deepEqual(await decidedAt(hooks, [event(1000, 'ns/x'), event(1004, 'ns/y'), event(1009, 'ns/z')]), [1010]);
    assert.deepEqual(read, [3]);
  });

  it('given a key enqueued at a cut, then it syncs once the watermarks of every co-partitioned input passed the time its record was seen', async () => {
    const hooks: ControllerHooks = {
      name: 'c',
      onEvent: () => ({ enqueue: [], enqueueAtCut: ['ns/svc'] }),
      reconcile: () => ({ mutations: [aMutation()] }),
    };
    const mark = (at: number, seen: number): ReplayInput => ({
      at,
      topic: 'kcm.state.pods',
      partition: 0,
      kind: 'watermark',
      observedAt: new Date(seen),
      resourceVersion: '1',
    });
    assert.deepEqual(
      await decidedAt(hooks, [event(1000, 'ns/x', 1000), mark(1500, 990), mark(1900, 1000)], [TOPIC, 'kcm.state.pods']),
      [1910],
    );
  });

  it("given a tick, then its keys sync every period from the window's start, each pass at its own time", async () => {
    const at: number[] = [];
    const hooks: ControllerHooks = {
      name: 'c',
      onEvent: () => ({ enqueue: [] }),
      reconcile: (_key, input) => (at.push(input.now.getTime()), { mutations: [] }),
    };
    const replay = new ControllerReplay({
      from: 1000,
      to: 3500,
      partitions: new Map(),
      partitioned: [],
      tick: { keys: ['ns/tick'], periodMs: 1000 },
    });
    const decided = await replay.run(hooks, [event(500, 'ns/before')]);
    assert.deepEqual(
      [at, decided.map((d) => `${d.at} ${d.key}`)],
      [
        [1000, 2000, 3000],
        ['1000 ns/tick', '2000 ns/tick', '3000 ns/tick'],
      ],
    );
  });
});
