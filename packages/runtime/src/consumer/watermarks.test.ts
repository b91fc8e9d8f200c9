import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Watermarks } from './watermarks.ts';

const at = (s: number): Date => new Date(Date.UTC(2026, 10, 23, 12, 0, s));

describe('Watermarks', () => {
  it('given watermarks of every partition, when asked, then the input is complete up to the oldest of them', () => {
    const w = new Watermarks();
    w.observe({ topic: 't', partition: 0 }, at(10));
    w.observe({ topic: 't', partition: 1 }, at(7));
    assert.deepEqual(w.watermark('t', [0, 1]), at(7));
    assert.deepEqual(w.watermark('t', [0]), at(10));
  });

  it("given a partition without a watermark, when asked, then the input's time is unknown", () => {
    const w = new Watermarks();
    w.observe({ topic: 't', partition: 0 }, at(10));
    assert.equal(w.watermark('t', [0, 1]), undefined);
    assert.equal(w.watermark('other', [0]), undefined);
    assert.equal(w.watermark('t', []), undefined);
  });

  it('given an older watermark read after a newer one, when observed, then time does not go back', () => {
    const w = new Watermarks();
    w.observe({ topic: 't', partition: 0 }, at(10));
    w.observe({ topic: 't', partition: 0 }, at(3));
    assert.deepEqual(w.watermark('t', [0]), at(10));
  });

  it("given records' own times held, then they count only once settled, each partition on its own, never back", () => {
    const w = new Watermarks();
    w.observe({ topic: 't', partition: 0 }, at(10));
    w.hold({ topic: 't', partition: 0 }, at(20));
    w.hold({ topic: 't', partition: 1 }, at(30));
    assert.deepEqual(w.watermark('t', [0]), at(10), 'held, not yet settled');
    w.settle({ topic: 't', partition: 0 });
    assert.deepEqual(w.watermark('t', [0]), at(20));
    assert.equal(w.watermark('t', [1]), undefined, "partition 1's batch is not applied yet");
    w.hold({ topic: 't', partition: 0 }, at(5));
    w.settle({ topic: 't', partition: 0 });
    assert.deepEqual(w.watermark('t', [0]), at(20), 'an older time settled never moves time back');
  });

  it("given co-partitioned topics, when partition n is asked, then it is complete up to the oldest of the topics' times on n, unknown while one has none", () => {
    const w = new Watermarks();
    w.observe({ topic: 'a', partition: 1 }, at(10));
    assert.equal(w.partitionWatermark(['a', 'b'], 1), undefined);
    w.observe({ topic: 'b', partition: 1 }, at(4));
    w.observe({ topic: 'b', partition: 0 }, at(1));
    assert.deepEqual(w.partitionWatermark(['a', 'b'], 1), at(4));
    assert.equal(w.partitionWatermark([], 1), undefined);
  });
});
