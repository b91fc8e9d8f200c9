import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SlowStartGate, slowStartBatchOf } from './slow-start.ts';

const member = (index: number, size = 10) => ({ run: 'r', index, size });

/** runAll plays a run through a gate: members admitted in index order, each finishing as `succeeds` says; returns what was attempted. */
async function runAll(
  gate: SlowStartGate,
  size: number,
  succeeds: (i: number) => boolean,
): Promise<{ attempted: number[]; skipped: number[] }> {
  const attempted: number[] = [];
  const skipped: number[] = [];
  await Promise.all(
    Array.from({ length: size }, async (_, i) => {
      const go = await gate.admit(member(i, size));
      (go ? attempted : skipped).push(i);
      await Promise.resolve();
      gate.finished(member(i, size), go && succeeds(i));
    }),
  );
  return { attempted: attempted.sort((a, b) => a - b), skipped: skipped.sort((a, b) => a - b) };
}

describe('slow start (controller_utils.go slowStartBatch) across records', () => {
  it('given indexes, then the batches are 1, 2, 4, 8 … members long', () => {
    assert.deepEqual(
      Array.from({ length: 16 }, (_, i) => slowStartBatchOf(i)),
      [0, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3, 4],
    );
  });

  it('given every create succeeds (TestSlowStartBatch callLimit = count), then all 10 are attempted', async () => {
    assert.deepEqual(await runAll(new SlowStartGate(), 10, () => true), {
      attempted: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
      skipped: [],
    });
  });

  it('given the first create fails (callLimit = 0), then only it is attempted', async () => {
    assert.deepEqual((await runAll(new SlowStartGate(), 10, () => false)).attempted, [0]);
  });

  it('given creates fail from the 6th on (callLimit = 5), then the batch of 4 is attempted whole and nothing after it: 7 calls', async () => {
    const { attempted, skipped } = await runAll(new SlowStartGate(), 10, (i) => i < 5);
    assert.deepEqual(attempted, [0, 1, 2, 3, 4, 5, 6]);
    assert.deepEqual(skipped, [7, 8, 9]);
  });

  it('given a run whose first members this gate never saw (applied before a restart), then the rest go on', async () => {
    const gate = new SlowStartGate();
    assert.equal(await gate.admit(member(7)), true);
  });

  it('given a member whose earlier batches finished, then it is answered at once, in the same turn', () => {
    const gate = new SlowStartGate();
    assert.equal(gate.admit(member(0)), true);
    gate.finished(member(0), true);
    assert.deepEqual([gate.admit(member(1)), gate.admit(member(2))], [true, true]);
    gate.finished(member(1), false);
    gate.finished(member(2), true);
    assert.equal(gate.admit(member(3)), false, 'a failure of an earlier batch skips it, also at once');
  });

  it('given a member of a later batch, then it waits for the earlier batch to finish', async () => {
    const gate = new SlowStartGate();
    await gate.admit(member(0));
    let admitted = false;
    const second = Promise.resolve(gate.admit(member(1))).then((go) => (admitted = go));
    await Promise.resolve();
    assert.equal(admitted, false, 'waiting on member 0');
    gate.finished(member(0), true);
    await second;
    assert.equal(admitted, true);
  });
});
