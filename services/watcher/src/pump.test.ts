import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { WatchRecord } from '@kcm-bus/schemas/watch-record.ts';
import type { KubeObject } from './events.ts';
import { Pump, type PumpFailures, type PumpItem } from './pump.ts';
// turn: the rest of the event loop's turn, by when a drain has taken what was queued and is publishing it.
import { flush as turn } from '@kcm-bus/runtime/workqueue/index.ts';

function applied(rv: string): WatchRecord<KubeObject> {
  return {
    type: 'Applied',
    key: `ns/p${rv}`,
    resourceVersion: rv,
    observedAt: '',
    object: { metadata: { name: `p${rv}`, namespace: 'ns', resourceVersion: rv } },
  };
}

/** failing is a PumpFailures where nothing is final, retries wait no time, and any fatal error fails the test; each part can be replaced. */
function failing(over: Partial<PumpFailures> = {}): PumpFailures {
  return {
    final: () => false,
    onFatal: (err) => assert.fail(String(err)),
    onRetry: () => undefined,
    onRecovered: () => undefined,
    backoff: { next: () => 1, reset: () => undefined },
    sleep: async () => undefined,
    now: () => 0,
    stallMs: 5000,
    ...over,
  };
}

const NO_FAILURE = failing({ onRetry: (err) => assert.fail(String(err)) });

/** firstHeld is a pump whose first publication is held until release(); batches are the resourceVersions of each. */
function firstHeld(): { pump: Pump; batches: string[][]; release: () => void } {
  const batches: string[][] = [];
  const { promise: first, resolve: release } = Promise.withResolvers<void>();
  const pump = new Pump(
    async (events) => {
      if (batches.push(events.map((e) => e.resourceVersion)) === 1) await first;
    },
    { maxBatch: 100, highWater: 1000 },
    NO_FAILURE,
  );
  return { pump, batches, release };
}

describe('Pump', () => {
  it('given a publication in flight, when more records arrive, then they go out together in the next batch, in order', async () => {
    const { pump, batches, release } = firstHeld();
    await pump.push([applied('1')]);
    await turn();
    await pump.push([applied('2')]);
    await pump.push([applied('3'), { type: 'Progress', resourceVersion: '4' }]);
    release();
    await pump.flush();
    assert.deepEqual(batches, [['1'], ['2', '3']]);
    assert.equal(pump.reached, '4');
  });

  it('given a publication in flight, when records are pushed with published, then it resolves once they are out, not when queued', async () => {
    const { pump, batches, release } = firstHeld();
    await pump.push([applied('1')]);
    await turn();
    let out = false;
    const published = pump.published([applied('2')]).then(() => (out = true));
    await pump.push([applied('3')]);
    await turn();
    assert.equal(out, false, 'queued behind the publication in flight');
    release();
    await published;
    assert.deepEqual(batches, [['1'], ['2', '3']], 'out with the batch it joined');
  });

  it('given events pushed one at a time, each a few promise hops after the last, within one turn (a watch backlog read after a stall), then they go out in one publication', async () => {
    const batches: string[][] = [];
    const pump = new Pump(
      async (events) => void batches.push(events.map((e) => e.resourceVersion)),
      { maxBatch: 100, highWater: 1000, gapMs: 200 },
      NO_FAILURE,
    );
    const handled = async (rv: string): Promise<void> => {
      await Promise.resolve();
      await pump.push([applied(rv)]);
    };
    let chain = Promise.resolve();
    for (const rv of ['1', '2', '3', '4']) chain = chain.then(() => handled(rv));
    await chain;
    await pump.flush();
    assert.deepEqual(batches, [['1', '2', '3', '4']], 'one publication, whose time no event of the backlog is behind');
  });

  it('given records queued behind a publication in flight, then latest is the last one queued while reached is the last one published', async () => {
    const { pump, release } = firstHeld();
    assert.equal(pump.latest, undefined);
    await pump.push([applied('1')]);
    await turn();
    await pump.push([applied('2'), { type: 'Progress', resourceVersion: '3' }]);
    assert.deepEqual([pump.reached, pump.latest], [undefined, '3'], 'what a watermark queued now comes after');
    release();
    await pump.flush();
    assert.deepEqual([pump.reached, pump.latest], ['3', '3']);
  });

  it('given a batch of progress only (nothing to publish), then the next records are still published', async () => {
    const published: string[] = [];
    const pump = new Pump(
      async (events) => void published.push(...events.map((e) => e.resourceVersion)),
      { maxBatch: 10, highWater: 10 },
      NO_FAILURE,
    );
    await pump.push([{ type: 'Progress', resourceVersion: '7' }]);
    await pump.flush();
    await pump.push([applied('8')]);
    await pump.flush();
    assert.deepEqual(published, ['8']);
    assert.equal(pump.reached, '8');
  });

  it('given a publication fenced by a newer watcher, then the failure is fatal, not retried, and later pushes are refused', async () => {
    const failures: unknown[] = [];
    let attempts = 0;
    const pump = new Pump(
      async () => (attempts++, Promise.reject(new Error('fenced'))),
      { maxBatch: 10, highWater: 10 },
      failing({ final: () => true, onFatal: (err) => failures.push(err) }),
    );
    await pump.push([applied('1')]);
    await pump.flush();
    assert.deepEqual([attempts, failures.length], [1, 1]);
    assert.equal(pump.reached, undefined, 'nothing was published');
    await assert.rejects(pump.push([applied('2')]), /stopped/);
  });

  it('given the broker away for three attempts, then the same batch is retried with backoff, stalled meanwhile, and published once, in order', async () => {
    const published: string[][] = [];
    const seen = { retries: [] as number[], recovered: 0, stalledWhileRetrying: [] as boolean[] };
    let attempts = 0;
    const pump: Pump = new Pump(
      async (events) => {
        if (++attempts <= 3) throw new Error('connect ECONNREFUSED');
        published.push(events.map((e) => e.resourceVersion));
      },
      { maxBatch: 10, highWater: 10 },
      failing({
        onRetry: (_err, attempt) => (seen.retries.push(attempt), seen.stalledWhileRetrying.push(pump.stalled)),
        onRecovered: (n) => (seen.recovered = n),
      }),
    );
    await pump.push([applied('1'), applied('2')]);
    await turn();
    await pump.push([applied('3')]);
    await pump.flush();
    assert.deepEqual(published, [['1', '2'], ['3']]);
    assert.deepEqual(seen, { retries: [1, 2, 3], recovered: 3, stalledWhileRetrying: [true, true, true] });
    assert.equal(pump.stalled, false);
    assert.equal(pump.reached, '3');
  });

  it('given a publication in flight longer than stallMs, then the pump is stalled until it completes', async () => {
    let now = 0;
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const pump = new Pump(
      async () => gate,
      { maxBatch: 10, highWater: 10 },
      failing({ now: () => now, stallMs: 5000 }),
    );
    await pump.push([applied('1')]);
    await turn();
    now = 5000;
    assert.equal(pump.stalled, false, 'in flight for exactly stallMs');
    now = 5001;
    assert.equal(pump.stalled, true);
    release();
    await pump.flush();
    assert.equal(pump.stalled, false);
  });

  it('given the broker away at shutdown, then close gives up without a fatal error and unblocks waiting pushes', async () => {
    const pump = new Pump(
      async () => Promise.reject(new Error('connect ECONNREFUSED')),
      { maxBatch: 1, highWater: 1 },
      failing({
        onFatal: (err) => assert.fail(String(err)),
        sleep: (_ms, signal) => new Promise((resolve) => signal.addEventListener('abort', () => resolve())),
      }),
    );
    await pump.push([applied('1')]);
    const waiting = pump.push([applied('2')]);
    await pump.close();
    await waiting;
    assert.equal(pump.reached, undefined);
  });

  it('given a queue over the high-water mark, then push waits until the publisher catches up', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const pump = new Pump(async () => gate, { maxBatch: 1, highWater: 2 }, NO_FAILURE);
    let done = false;
    await pump.push([applied('1')]);
    await turn();
    for (const rv of ['2', '3']) await pump.push([applied(rv)]);
    const pushing = pump.push([applied('4')]).then(() => (done = true));
    await Promise.resolve();
    assert.equal(done, false, 'three records wait behind the one in flight: over the high-water mark of 2');
    release();
    await pushing;
    await pump.flush();
    assert.equal(pump.reached, '4');
  });

  it('given a relist larger than a batch, then it is published whole, alone and atomic (one transaction), never split where a crash could land', async () => {
    const batches: string[] = [];
    let release: () => void = () => undefined;
    const first = new Promise<void>((resolve) => (release = resolve));
    const pump = new Pump(
      async (events, atomic) => {
        batches.push(`${atomic ? 'atomic' : 'plain'} ${events.map((e) => e.resourceVersion).join(',')}`);
        if (batches.length === 1) await first;
      },
      { maxBatch: 2, highWater: 100 },
      NO_FAILURE,
    );
    await pump.push([applied('0')]);
    await turn();
    await pump.push([applied('1'), applied('2'), applied('3'), { type: 'Progress', resourceVersion: '9' }], true);
    await pump.push([applied('10')]);
    release();
    await pump.flush();
    assert.deepEqual(batches, ['plain 0', 'atomic 1,2,3', 'plain 10']);
    assert.equal(pump.reached, '10', 'a push right after a drain ended is published too');
  });

  it('given gapMs, when records follow a publication at once, then the next waits out the rest of gapMs and takes what came meanwhile', async () => {
    let now = 1000;
    const batches: string[][] = [];
    const waits: number[] = [];
    let pump: Pump | undefined;
    pump = new Pump(
      async (events) => {
        batches.push(events.map((e) => e.resourceVersion));
        now += 5;
      },
      { maxBatch: 100, highWater: 1000, gapMs: 3 },
      failing({
        now: () => now,
        sleep: async (ms) => {
          waits.push(ms);
          await pump!.push([applied('3')]);
          now += ms;
        },
      }),
    );
    await pump.push([applied('1')]);
    await turn();
    await pump.push([applied('2')]);
    await pump.flush();
    assert.deepEqual(batches, [['1'], ['2', '3']]);
    assert.deepEqual(waits, [3], 'the first publication starts at once; the second 3 ms after the first ended');
  });

  it('given maxGapMs, when a publication carried many records, then the next waits 1 ms per record, up to maxGapMs', async () => {
    let now = 1000;
    const waits: number[] = [];
    const pump = new Pump(
      async () => void (now += 5),
      { maxBatch: 100, highWater: 1000, gapMs: 3, maxGapMs: 10 },
      failing({
        now: () => now,
        sleep: async (ms) => void waits.push(ms, (now += ms)),
      }),
    );
    const records = (n: number, from: number): PumpItem[] =>
      Array.from({ length: n }, (_, i) => applied(String(from + i)));
    for (const [n, from] of [
      [6, 100],
      [1, 200],
      [20, 300],
      [2, 400],
      [1, 500],
    ] as const) {
      await pump.push(records(n, from));
      await pump.flush(); // the next push comes as the publication ends
    }
    assert.deepEqual(
      waits.filter((_, i) => i % 2 === 0),
      [6, 3, 10, 3],
      'after 6 records 6 ms, after 1 record 3 ms, after 20 records 10 ms (the most), after 2 records 3 ms',
    );
  });
});
