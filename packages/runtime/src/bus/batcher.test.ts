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
