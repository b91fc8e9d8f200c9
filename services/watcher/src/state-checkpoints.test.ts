import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { TopicRecords } from '@kcm-bus/runtime/bus/index.ts';
import { StateCheckpoints } from './state-checkpoints.ts';

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

describe('StateCheckpoints', () => {
  it('given records the history took, when flushed, then one transaction holds them and a marker per partition naming the next history offset and the epoch', async () => {
    const sent: string[][] = [];
    const c = new StateCheckpoints(async (batches) => void sent.push(shown(batches)), '42');
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
    const sent: string[][] = [];
    let fail = true;
    const c = new StateCheckpoints(async (batches) => {
      if (fail) throw new Error('broker away');
      sent.push(shown(batches).filter((line) => !line.includes('~watermark')));
    }, '1');
    c.register(kind, new Map());
    c.add(kind.state, [record('ns/a', 0)], []);
    await assert.rejects(c.flush(), /broker away/);
    c.add(kind.state, [record('ns/b', 0)], []);
    fail = false;
    await c.flush();
    assert.deepEqual(sent, [['kcm.state.pods ns/a@0 {}', 'kcm.state.pods ns/b@0 {}']]);
  });

  it("given extra records (a new watcher's fence), then they go in the same transaction", async () => {
    const sent: string[][] = [];
    const c = new StateCheckpoints(async (batches) => void sent.push(shown(batches)), '3');
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
});
