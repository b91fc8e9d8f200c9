import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { InflightScheduler, type InflightRecord } from './inflight.ts';
import { OffsetLog } from './offset-log.ts';

const rec = (offset: number, key: string, partition = 0): InflightRecord => ({ partition, offset, key });
const offsets = (records: readonly InflightRecord[]): number[] => records.map((r) => r.offset);

/** given adds records to a fresh scheduler. */
function given(concurrency: number, ...records: InflightRecord[]): InflightScheduler<InflightRecord> {
  const scheduler = new InflightScheduler<InflightRecord>(concurrency);
  for (const r of records) scheduler.add(r);
  return scheduler;
}

describe('InflightScheduler: order and concurrency', () => {
  it('given 1000 creates of distinct pods on one partition, then up to the concurrency limit run at once', () => {
    const scheduler = given(64, ...Array.from({ length: 1000 }, (_, i) => rec(i, `pods/ns/p${i}`)));
    const first = scheduler.take();
    assert.deepEqual(
      offsets(first),
      Array.from({ length: 64 }, (_, i) => i),
    );
    assert.deepEqual(scheduler.take(), []);
    scheduler.done(first[0]!);
    assert.deepEqual(offsets(scheduler.take()), [64]);
  });

  it('given three records of one pod, then they run one after the other in offset order', () => {
    const [a, b, c] = [rec(0, 'pods/ns/x'), rec(1, 'pods/ns/x'), rec(2, 'pods/ns/x')];
    const scheduler = given(10, a!, b!, c!);
    assert.deepEqual(scheduler.take(), [a]);
    assert.deepEqual(scheduler.take(), []);
    scheduler.done(a!);
    assert.deepEqual(scheduler.take(), [b]);
    scheduler.done(b!);
    assert.deepEqual(scheduler.take(), [c]);
  });

  it('given a busy key, then other keys behind it still run', () => {
    const scheduler = given(10, rec(0, 'x'), rec(1, 'x'), rec(2, 'y'));
    assert.deepEqual(offsets(scheduler.take()), [0, 2]);
    assert.equal(scheduler.inFlight(), 2);
    assert.equal(scheduler.queued(), 1);
  });

  it("given a controller's records filling its lane (waiting for its API budget), then another controller's record still runs", () => {
    const creates = Array.from({ length: 5 }, (_, i) => ({
      ...rec(i, `pods/ns/p${i}`),
      lane: 'replicaset-controller',
    }));
    const scale = { ...rec(5, 'replicasets.apps/ns/web-1'), lane: 'deployment-controller' };
    const scheduler = given(2, ...creates, scale);
    assert.deepEqual(offsets(scheduler.take()), [0, 1, 5]);
    assert.deepEqual(scheduler.take(), []);
    scheduler.done(scale);
    scheduler.done(creates[0]!);
    assert.deepEqual(offsets(scheduler.take()), [2]);
  });

  it("given one target written by two controllers, then its records keep their order, each counted in its own controller's lane", () => {
    const status = { ...rec(0, 'replicasets.apps/ns/web-1'), lane: 'replicaset-controller' };
    const scale = { ...rec(1, 'replicasets.apps/ns/web-1'), lane: 'deployment-controller' };
    const other = { ...rec(2, 'pods/ns/p'), lane: 'replicaset-controller' };
    const scheduler = given(1, status, scale, other);
    assert.deepEqual(scheduler.take(), [status]);
    scheduler.done(status);
    assert.deepEqual(offsets(scheduler.take()).sort(), [1, 2]);
  });

  it('given a revoked partition whose record headed a key, then the key is ready in the lane of its new head', () => {
    const scheduler = given(1, { ...rec(0, 'x', 1), lane: 'a' }, { ...rec(1, 'x', 0), lane: 'b' });
    scheduler.revoke(1);
    assert.deepEqual(offsets(scheduler.take()), [1]);
  });

  it('given a record that is not in flight, then done refuses it', () => {
    const scheduler = given(1, rec(0, 'x'));
    assert.throws(() => scheduler.done(rec(0, 'x')), /not in flight/);
  });
});

describe('InflightScheduler: committable offsets', () => {
  it('given results published out of order, then the commit stops at the first unpublished offset', () => {
    const scheduler = given(10, rec(10, 'a'), rec(11, 'b'), rec(12, 'c'));
    const [a, b, c] = scheduler.take();
    assert.equal(scheduler.committable(0), 10);
    scheduler.done(b!);
    scheduler.done(c!);
    assert.equal(scheduler.committable(0), 10);
    scheduler.done(a!);
    assert.equal(scheduler.committable(0), 13);
  });

  it('given two partitions, then each commits independently; an unknown partition has nothing to commit', () => {
    const scheduler = given(10, rec(0, 'a', 0), rec(5, 'b', 1));
    const [a] = scheduler.take();
    scheduler.done(a!);
    assert.deepEqual([scheduler.committable(0), scheduler.committable(1), scheduler.committable(2)], [1, 5, undefined]);
  });

  it('given a revoked partition, then its queued records are dropped and its in-flight ones no longer count', () => {
    const scheduler = given(10, rec(0, 'x', 0), rec(1, 'x', 0), rec(0, 'y', 1));
    const [running] = scheduler.take();
    scheduler.revoke(0);
    assert.equal(scheduler.queued(), 0);
    assert.equal(scheduler.committable(1), 0);
    assert.equal(scheduler.committable(0), undefined);
    scheduler.add(rec(0, 'x', 0));
    assert.deepEqual(scheduler.take(), [], 'key x stays busy until the old request is done');
    scheduler.done(running!);
    assert.equal(scheduler.committable(0), 0, 'the old result does not advance the new assignment');
    assert.deepEqual(
      scheduler.take().map((r) => [r.partition, r.offset]),
      [[0, 0]],
    );
  });
});

describe('OffsetLog', () => {
  it('given offsets with gaps (compaction), then the commit goes one past the last done', () => {
    const log = new OffsetLog();
    for (const o of [3, 7, 9]) log.add(o);
    log.complete(7);
    assert.equal(log.committable(), 3);
    log.complete(3);
    assert.equal(log.committable(), 9);
    log.complete(9);
    assert.deepEqual([log.committable(), log.pending()], [10, 0]);
  });

  it('given a batch redelivered after a failed commit, then its offsets are accepted and the commit waits for them again', () => {
    const log = new OffsetLog();
    for (const o of [4, 5, 6]) log.add(o);
    for (const o of [4, 5, 6]) log.complete(o);
    for (const o of [4, 5, 6]) log.add(o);
    assert.deepEqual([log.committable(), log.pending()], [4, 3]);
    for (const o of [4, 5, 6]) log.complete(o);
    assert.deepEqual([log.committable(), log.pending()], [7, 0]);
  });

  it('given an offset redelivered while still outstanding, then it counts once and a second completion is ignored', () => {
    const log = new OffsetLog();
    for (const o of [1, 2, 3]) log.add(o);
    log.add(2);
    assert.equal(log.pending(), 3);
    log.complete(2);
    log.complete(1);
    log.complete(2);
    log.complete(1);
    assert.deepEqual([log.committable(), log.pending()], [3, 1]);
    log.complete(3);
    assert.deepEqual([log.committable(), log.pending()], [4, 0]);
  });

  it('given a long run of done offsets, then the log stays small and correct', () => {
    const log = new OffsetLog();
    for (let i = 0; i < 5000; i++) log.add(i);
    for (let i = 0; i < 4999; i++) log.complete(i);
    assert.deepEqual([log.committable(), log.pending()], [4999, 1]);
  });
});
