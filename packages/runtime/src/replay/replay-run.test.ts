import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { aMutation } from '../mutation/mutation.fixture.ts';
import type { ControllerHooks, InputEvent } from '../reconcile/controller-types.ts';
import { ReplayRun, type ReplayInput } from './replay-run.ts';

const TOPIC = 'kcm.state.endpoints';

/**
 * ensurer is a controller like the endpoints controller's core: key `ns/svc` wants object `ns/svc` to exist, and
 * creates it when its store does not hold it; every event enqueues the key.
 */
function ensurer(): ControllerHooks {
  const store = new Set<string>();
  return {
    name: 'endpoints-controller',
    onEvent: (_topic, e) => (e.type === 'Applied' ? store.add(e.key) : store.delete(e.key), { enqueue: ['ns/svc'] }),
    reconcile: (key) => ({ mutations: store.has(key) ? [] : [aMutation({ verb: 'Create', target: { ...aMutation().target, namespace: 'ns', name: 'svc' } })] }),
  };
}

let offset = 0;
function event(at: number, key: string): Extract<ReplayInput, { kind: 'event' }> {
  const e: InputEvent = { cause: { topic: TOPIC, partition: 0, offset: offset++ }, type: 'Applied', key, object: {}, resourceVersion: '1', live: true };
  return { at, topic: TOPIC, partition: 0, kind: 'event', event: e };
}

async function creates(history: readonly ReplayInput[], to: number): Promise<number[]> {
  const run = new ReplayRun(ensurer(), { from: 0, ttlMs: 0, keepsExpectations: false, partitions: new Map() });
  for (const input of history) await run.feed(input);
  return (await run.finish(to)).filter((d) => d.mutations.length > 0).map((d) => d.at);
}

describe('ReplayRun: read your writes', () => {
  it('given a sync that created an object, then the key waits for the history to show it before deciding again (no second create)', async () => {
    // Another event at 1020 would sync the key before the deployed controller's create shows at 1050.
    assert.deepEqual(await creates([event(1000, 'ns/other'), event(1020, 'ns/other'), event(1050, 'ns/svc'), event(1100, 'ns/other')], 3000), [1010]);
  });

  it('given a write the history never shows (the deployed controller did not make it), then the key decides again after the hold', async () => {
    assert.deepEqual(await creates([event(1000, 'ns/other'), event(1020, 'ns/other')], 3000), [1010, 2010]);
  });
});

describe('ReplayRun: cuts', () => {
  it('given a key enqueued at a cut, then it syncs once the history\'s watermarks passed the time its record was seen, as deployed', async () => {
    const hooks: ControllerHooks = { name: 'c', onEvent: () => ({ enqueue: [], enqueueAtCut: ['ns/svc'] }), reconcile: () => ({ mutations: [aMutation()] }) };
    const run = new ReplayRun(hooks, { from: 0, ttlMs: 0, keepsExpectations: false, partitions: new Map([[TOPIC, 1]]) });
    const mark = (at: number, seen: number): ReplayInput => ({ at, topic: TOPIC, partition: 0, kind: 'watermark', observedAt: new Date(seen) });
    const seenAt1000: ReplayInput = { ...event(1000, 'ns/x'), event: { ...event(1000, 'ns/x').event, observedAt: new Date(1000) } };
    for (const input of [seenAt1000, mark(1500, 990), mark(1900, 1000)]) await run.feed(input);
    assert.deepEqual((await run.finish(3000)).filter((d) => d.mutations.length > 0).map((d) => d.at), [1910]);
  });
});
