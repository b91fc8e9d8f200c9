import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Executor } from './executor.ts';
import { InflightScheduler } from './inflight.ts';

type R = { partition: number; offset: number; key: string };
const rec = (offset: number, key: string): R => ({ partition: 0, offset, key });

describe('Executor', () => {
  it('given records of two targets, then each target runs in offset order while the targets run side by side', async () => {
    const log: string[] = [];
    const gates = new Map<number, () => void>();
    const executor = new Executor(new InflightScheduler<R>(8), (r) => new Promise<void>((resolve) => {
      log.push(`start ${r.offset}`);
      gates.set(r.offset, () => (log.push(`end ${r.offset}`), resolve()));
    }));
    const run = executor.run([rec(0, 'a'), rec(1, 'a'), rec(2, 'b')]);
    await Promise.resolve();
    assert.deepEqual(log, ['start 0', 'start 2'], 'a@1 waits for a@0; b@2 runs beside it');
    gates.get(0)?.();
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(log.slice(2), ['end 0', 'start 1']);
    gates.get(1)?.();
    gates.get(2)?.();
    await run;
  });

  it('given close while records wait, then in-flight ones finish and the waiting ones fail their run', async () => {
    let release: () => void = () => undefined;
    const executor = new Executor(new InflightScheduler<R>(1), () => new Promise<void>((resolve) => (release = resolve)));
    const run = executor.run([rec(0, 'a'), rec(1, 'b')]);
    const closing = executor.close();
    release();
    await closing;
    await assert.rejects(run, /stopping/);
  });
});
