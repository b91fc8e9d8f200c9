import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Batcher } from './batcher.ts';

describe('Batcher', () => {
  it('given items pushed while a batch is in flight, then they go together in the next batch and each push resolves when sent', async () => {
    const sent: number[][] = [];
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const batcher = new Batcher<number>(async (items) => {
      sent.push([...items]);
      if (sent.length === 1) await gate;
    });
    const first = batcher.push(1);
    const later = [batcher.push(2), batcher.push(3)];
    release();
    await Promise.all([first, ...later]);
    assert.deepEqual(sent, [[1], [2, 3]]);
  });

  it('given a failing send, then every push of that batch rejects', async () => {
    const batcher = new Batcher<number>(async () => Promise.reject(new Error('broker down')));
    await assert.rejects(batcher.push(1), /broker down/);
  });
});

describe('Batcher options', () => {
  it('given a gather that waits for the next turn, then the pushes of one turn go in one batch, even the first', async () => {
    const sent: number[][] = [];
    const batcher = new Batcher<number>(async (items) => void sent.push([...items]), {
      gather: () => new Promise((resolve) => setImmediate(resolve)),
    });
    await Promise.all([batcher.push(1), batcher.push(2), batcher.push(3)]);
    assert.deepEqual(sent, [[1, 2, 3]]);
  });

  it('given alone says so, when a batch of several fails, then each item is sent alone and only the item no send takes rejects', async () => {
    const sent: number[][] = [];
    const batcher = new Batcher<number>(
      async (items) => {
        sent.push([...items]);
        if (items.includes(2)) throw new Error('record too large');
      },
      { gather: () => new Promise((resolve) => setImmediate(resolve)), alone: () => true },
    );
    const [one, two, three] = await Promise.allSettled([batcher.push(1), batcher.push(2), batcher.push(3)]);
    assert.deepEqual([one.status, two.status, three.status], ['fulfilled', 'rejected', 'fulfilled']);
    assert.deepEqual(sent, [[1, 2, 3], [1], [2], [3]]);
  });

  it('given alone refuses the error (a fenced publisher), then every push of the batch rejects without another send', async () => {
    let sends = 0;
    const batcher = new Batcher<number>(
      async () => {
        sends++;
        throw new Error('fenced');
      },
      {
        gather: () => new Promise((resolve) => setImmediate(resolve)),
        alone: (err) => (err as Error).message !== 'fenced',
      },
    );
    const results = await Promise.allSettled([batcher.push(1), batcher.push(2)]);
    assert.deepEqual(
      results.map((r) => r.status),
      ['rejected', 'rejected'],
    );
    assert.equal(sends, 1);
  });
});
