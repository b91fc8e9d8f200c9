import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { TopicRecords } from '@kcm-bus/runtime/bus/index.ts';
import { runCheckpoints, StateCheckpoints, type Marks } from './state-checkpoints.ts';

const kind = { state: 'kcm.state.pods', history: 'kcm.watch.pods', partitions: 2, marker: () => Buffer.from('wm') };
const record = (key: string, partition: number) => ({ key, value: Buffer.from(key), partition });

/** shown is a transaction as the test reads it: per topic, each record's key, partition and checkpoint headers. */
function shown(batches: readonly TopicRecords[]): string[] {
  return batches.flatMap((b) =>
    b.records.map(
      (r) =>
        `${b.topic} ${r.key}@${r.partition ?? '?'}${r.value === null ? ' tombstone' : ''} ${JSON.stringify(r.headers ?? {})}`,
    ),
  );
}

/** recorded is a StateCheckpoints of the epoch whose transactions are kept, as the test reads them, in `sent`. */
function recorded(epoch: string): { readonly c: StateCheckpoints; readonly sent: string[][] } {
  const sent: string[][] = [];
  return { c: new StateCheckpoints(async (batches) => void sent.push(shown(batches)), epoch), sent };
}

/**
 * failingUntilRecovered is a StateCheckpoints whose transactions fail (the broker away) until recover() is called;
 * what goes out after is kept in `sent`, without the markers.
 */
function failingUntilRecovered(): {
  readonly c: StateCheckpoints;
  readonly sent: string[][];
  readonly recover: () => void;
} {
  const sent: string[][] = [];
  let fail = true;
  const c = new StateCheckpoints(async (batches) => {
    if (fail) throw new Error('broker away');
    sent.push(shown(batches).filter((line) => !line.includes('~watermark')));
  }, '1');
  return { c, sent, recover: () => void (fail = false) };
}

describe('StateCheckpoints', () => {
  it('given records the history took, when flushed, then one transaction holds them and a marker per partition naming the next history offset and the epoch', async () => {
    const { c, sent } = recorded('42');
    c.register(kind, new Map([[0, 5n]]));
    c.add(
      kind.state,
      [record('ns/a', 1), { ...record('ns/a', 1), value: null }],
      [
        { topic: kind.history, partition: 1, lastOffset: '17' },
        { topic: 'other', partition: 0, lastOffset: '99' },
      ],
    );
    assert.equal(c.dirty, true);
    await c.flush();
    assert.deepEqual(sent, [
      [
        'kcm.state.pods ns/a@1 {}',
        'kcm.state.pods ns/a@1 tombstone {}',
        'kcm.state.pods ~watermark@0 {"kcm-bus-epoch":"42","kcm-bus-history-next":"5"}',
        'kcm.state.pods ~watermark@1 {"kcm-bus-epoch":"42","kcm-bus-history-next":"18"}',
      ],
    ]);
    assert.equal(c.dirty, false);
  });

  it('given a failed checkpoint, then what it took is sent again first, before what came meanwhile', async () => {
    const { c, sent, recover } = failingUntilRecovered();
    c.register(kind, new Map());
    c.add(kind.state, [record('ns/a', 0)], []);
    await assert.rejects(c.flush(), /broker away/);
    c.add(kind.state, [record('ns/b', 0)], []);
    recover();
    await c.flush();
    assert.deepEqual(sent, [['kcm.state.pods ns/a@0 {}', 'kcm.state.pods ns/b@0 {}']]);
  });

  it("given extra records (a new watcher's fence), then they go in the same transaction", async () => {
    const { c, sent } = recorded('3');
    c.register({ ...kind, partitions: 1 }, new Map());
    await c.flush([
      {
        topic: kind.history,
        records: [{ key: '~watermark', value: Buffer.from('wm'), partition: 0, headers: { 'kcm-bus-epoch': '3' } }],
      },
    ]);
    assert.deepEqual(sent, [
      [
        'kcm.watch.pods ~watermark@0 {"kcm-bus-epoch":"3"}',
        'kcm.state.pods ~watermark@0 {"kcm-bus-epoch":"3","kcm-bus-history-next":"0"}',
      ],
    ]);
  });

  it("given a key's events within one interval, then the checkpoint holds its latest only, a Deleted with its tombstone", async () => {
    const { c, sent } = recorded('7');
    c.register(kind, new Map());
    const del = (key: string) => [
      { ...record(key, 0), key, headers: { t: 'Deleted' } },
      { ...record(key, 0), value: null },
    ];
    c.add(kind.state, [record('ns/a', 0), record('ns/b', 0)], []);
    c.add(kind.state, [{ ...record('ns/a', 0), headers: { t: 'Modified' } }, ...del('ns/b')], []);
    c.add(kind.state, [record('ns/b', 0)], []);
    await c.flush([], 'moved');
    assert.deepEqual(sent, [
      [
        'kcm.state.pods ns/a@0 {"t":"Modified"}',
        'kcm.state.pods ns/b@0 {}',
        'kcm.state.pods ~watermark@0 {"kcm-bus-epoch":"7","kcm-bus-history-next":"0"}',
      ],
    ]);
    c.add(kind.state, del('ns/a'), []);
    await c.flush([], 'moved');
    assert.deepEqual(sent[1]?.slice(0, 2), [
      'kcm.state.pods ns/a@0 {"t":"Deleted"}',
      'kcm.state.pods ns/a@0 tombstone {}',
    ]);
  });

  it('given a checkpoint that is not full, then it marks only the partitions its records are in, and with none it sends nothing', async () => {
    const { c, sent } = recorded('9');
    c.register(kind, new Map());
    c.register({ ...kind, state: 'kcm.state.rcs', history: 'kcm.watch.rcs' }, new Map());
    c.add(kind.state, [], [{ topic: kind.history, partition: 0, lastOffset: '3' }]);
    assert.equal(c.dirty, false, 'a history that took watermarks alone waits for the full checkpoint');
    await c.flush([], 'moved');
    assert.deepEqual(sent, []);
    c.add(kind.state, [record('ns/a', 1)], [{ topic: kind.history, partition: 1, lastOffset: '8' }]);
    await c.flush([], 'moved');
    await c.flush([], 'all');
    assert.deepEqual(sent, [
      ['kcm.state.pods ns/a@1 {}', 'kcm.state.pods ~watermark@1 {"kcm-bus-epoch":"9","kcm-bus-history-next":"9"}'],
      [
        'kcm.state.pods ~watermark@0 {"kcm-bus-epoch":"9","kcm-bus-history-next":"4"}',
        'kcm.state.pods ~watermark@1 {"kcm-bus-epoch":"9","kcm-bus-history-next":"9"}',
        'kcm.state.rcs ~watermark@0 {"kcm-bus-epoch":"9","kcm-bus-history-next":"0"}',
        'kcm.state.rcs ~watermark@1 {"kcm-bus-epoch":"9","kcm-bus-history-next":"0"}',
      ],
    ]);
  });

  it('given a fence checkpoint with no record waiting, then one marker goes out, in the first partition of the first kind', async () => {
    const { c, sent } = recorded('5');
    c.register(kind, new Map([[0, 12n]]));
    await c.flush([], 'fence');
    c.add(kind.state, [record('ns/a', 1)], [{ topic: kind.history, partition: 1, lastOffset: '3' }]);
    await c.flush([], 'fence');
    assert.deepEqual(sent, [
      ['kcm.state.pods ~watermark@0 {"kcm-bus-epoch":"5","kcm-bus-history-next":"12"}'],
      ['kcm.state.pods ns/a@1 {}', 'kcm.state.pods ~watermark@1 {"kcm-bus-epoch":"5","kcm-bus-history-next":"4"}'],
    ]);
  });

  it('given a failed checkpoint, then a newer record of a key it took replaces the one it put back', async () => {
    const { c, sent, recover } = failingUntilRecovered();
    c.register(kind, new Map());
    c.add(kind.state, [record('ns/a', 0), record('ns/b', 0)], []);
    await assert.rejects(c.flush([], 'moved'), /broker away/);
    c.add(kind.state, [{ ...record('ns/a', 0), headers: { t: 'newer' } }], []);
    recover();
    await c.flush([], 'moved');
    assert.deepEqual(sent, [['kcm.state.pods ns/b@0 {}', 'kcm.state.pods ns/a@0 {"t":"newer"}']]);
  });
});

describe('runCheckpoints', () => {
  it('given records for three intervals, then those mark what moved, a fence goes out after an idle interval without any, and every partition is marked each full interval', async (t) => {
    t.mock.timers.enable({ apis: ['setInterval'] });
    let nowMs = 0;
    const flushes: Marks[] = [];
    const checkpoints = { dirty: false, flush: async (_: unknown, marks: Marks) => void flushes.push(marks) };
    const timing = { intervalMs: 100, idleIntervalMs: 500, fullIntervalMs: 1500 };
    const run = runCheckpoints(checkpoints as unknown as StateCheckpoints, timing, () => nowMs, {
      fenced: () => false,
      onFatal: () => assert.fail('not fenced'),
      onRetry: () => assert.fail('no failure'),
    });
    for (let tick = 1; tick <= 20; tick++) {
      checkpoints.dirty = tick <= 3;
      nowMs += 100;
      t.mock.timers.tick(100);
      await new Promise((resolve) => setImmediate(resolve));
    }
    await run.stop();
    // 100-300 ms: records; 800 and 1300: no checkpoint for 500 ms; 1500: the full interval; 2000: an idle one again.
    assert.deepEqual(flushes, ['moved', 'moved', 'moved', 'fence', 'fence', 'all', 'fence']);
  });
});
