import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ProducerSlot } from './producer-slot.ts';

/** Fake is a producer that records whether it was let go. */
class Fake {
  disconnected = false;
  readonly id: number;
  constructor(id: number) {
    this.id = id;
  }
  async disconnect(): Promise<void> {
    this.disconnected = true;
  }
}

/** opener opens Fakes numbered from 1, keeping each; `fail` makes the next open reject. */
function opener(): { opened: Fake[]; fail: boolean; open: () => Promise<Fake> } {
  const o = {
    opened: [] as Fake[],
    fail: false,
    open: async () => {
      if (o.fail) {
        o.fail = false;
        throw new Error('connect ECONNREFUSED');
      }
      const p = new Fake(o.opened.length + 1);
      o.opened.push(p);
      return p;
    },
  };
  return o;
}

const outOfOrder = Object.assign(new Error('The broker received an out of order sequence number'), {
  type: 'OUT_OF_ORDER_SEQUENCE_NUMBER',
});

describe('ProducerSlot', () => {
  it('given sends that succeed, then they all go through the one producer', async () => {
    const o = opener();
    const slot = new ProducerSlot(o.open);
    const ids = [await slot.use(async (p) => p.id), await slot.use(async (p) => p.id)];
    assert.deepEqual(ids, [1, 1]);
    assert.equal(o.opened.length, 1);
  });

  it('given a send that fails, then its producer is let go and the next send opens a new one', async () => {
    const o = opener();
    const slot = new ProducerSlot(o.open);
    await assert.rejects(
      slot.use(async () => Promise.reject(outOfOrder)),
      outOfOrder,
    );
    assert.equal(o.opened[0]?.disconnected, true);
    assert.equal(await slot.use(async (p) => p.id), 2, 'a new producer id: its sequences start again');
  });

  it('given sends that fail together on one producer, then one new producer is opened, not one each', async () => {
    const o = opener();
    const slot = new ProducerSlot(o.open);
    await slot.ready();
    const failing = [1, 2, 3].map(() => slot.use(async () => Promise.reject(outOfOrder)));
    await Promise.allSettled(failing);
    const after = await Promise.all([slot.use(async (p) => p.id), slot.use(async (p) => p.id)]);
    assert.deepEqual(after, [2, 2]);
    assert.equal(o.opened.length, 2);
  });

  it('given a late failure on a producer already replaced, then the new producer is kept', async () => {
    const o = opener();
    const slot = new ProducerSlot(o.open);
    const late = Promise.withResolvers<never>();
    const slow = slot.use(() => late.promise);
    await assert.rejects(slot.use(async () => Promise.reject(outOfOrder)));
    assert.equal(await slot.use(async (p) => p.id), 2);
    late.reject(outOfOrder);
    await assert.rejects(slow);
    assert.equal(o.opened[1]?.disconnected, false);
    assert.equal(await slot.use(async (p) => p.id), 2);
  });

  it('given a failure keep says is not the producer’s (fenced), then the producer is kept', async () => {
    const o = opener();
    const slot = new ProducerSlot(o.open);
    await assert.rejects(
      slot.use(
        async () => Promise.reject(new Error('fenced')),
        () => true,
      ),
    );
    assert.equal(o.opened[0]?.disconnected, false);
    assert.equal(await slot.use(async (p) => p.id), 1);
  });

  it('given an open that fails, then the send fails and the next one opens again', async () => {
    const o = opener();
    o.fail = true;
    const slot = new ProducerSlot(o.open);
    await assert.rejects(
      slot.use(async (p) => p.id),
      /ECONNREFUSED/,
    );
    assert.equal(await slot.use(async (p) => p.id), 1);
  });

  it('given close, then the open producer is let go, and closing with none open does nothing', async () => {
    const o = opener();
    const slot = new ProducerSlot(o.open);
    await slot.close();
    await slot.ready();
    await slot.close();
    assert.equal(o.opened[0]?.disconnected, true);
  });
});
