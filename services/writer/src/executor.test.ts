import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { AbandonedError, Executor } from './executor.ts';
import { InflightScheduler } from './inflight.ts';

type R = { partition: number; offset: number; key: string };
const rec = (offset: number, key: string, partition = 0): R => ({ partition, offset, key });

describe('Executor', () => {
  it('given records of two targets, then each target runs in offset order while the targets run side by side', async () => {
    const log: string[] = [];
    const gates = new Map<number, () => void>();
    const executor = new Executor(
      new InflightScheduler<R>(8),
      (r) =>
        new Promise<void>((resolve) => {
          log.push(`start ${r.offset}`);
          gates.set(r.offset, () => (log.push(`end ${r.offset}`), resolve()));
        }),
    );
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
    const executor = new Executor(
      new InflightScheduler<R>(1),
      () => new Promise<void>((resolve) => (release = resolve)),
    );
    const run = executor.run([rec(0, 'a'), rec(1, 'b')]);
    const closing = executor.close();
    release();
    await closing;
    await assert.rejects(run, /stopping/);
  });

  it('given close, then a later batch is refused at once instead of waiting forever', async () => {
    const executor = new Executor(new InflightScheduler<R>(1), () => Promise.resolve());
    await executor.close();
    await assert.rejects(executor.run([rec(0, 'a')]), AbandonedError);
    assert.equal(executor.pending(), 0);
  });

  it('given a partition revoked while its records wait, then they are not applied and their run fails; other partitions go on', async () => {
    const applied: string[] = [];
    let release: () => void = () => undefined;
    const executor = new Executor(new InflightScheduler<R>(1), (r) => {
      applied.push(`${r.partition}@${r.offset}`);
      return new Promise<void>((resolve) => (release = resolve));
    });
    const kept = executor.run([rec(0, 'a', 1)]);
    const lost = executor.run([rec(0, 'b', 0), rec(1, 'c', 0)]);
    executor.revoke(0);
    await assert.rejects(lost, /partition 0 was revoked/);
    release();
    await kept;
    assert.deepEqual(applied, ['1@0']);
    assert.equal(executor.pending(), 0, 'no waiter is left behind');
  });

  it('given a handler that fails, then its key is free for the next record of that target', async () => {
    let calls = 0;
    const executor = new Executor(new InflightScheduler<R>(1), () =>
      calls++ === 0 ? Promise.reject(new Error('boom')) : Promise.resolve(),
    );
    await assert.rejects(executor.run([rec(0, 'a')]), /boom/);
    await executor.run([rec(1, 'a')]);
    assert.equal(calls, 2);
  });

  it('given more records pending than the room asked for, then room waits until enough of them are done', async () => {
    const gates: (() => void)[] = [];
    const executor = new Executor(new InflightScheduler<R>(8), () => new Promise<void>((r) => gates.push(r)));
    void executor.run([rec(0, 'a'), rec(1, 'b'), rec(2, 'c')]);
    let roomy = false;
    const room = executor.room(2).then(() => (roomy = true));
    await new Promise((r) => setImmediate(r));
    assert.equal(roomy, false, '3 pending: no room below 2');
    gates.shift()?.();
    await new Promise((r) => setImmediate(r));
    assert.equal(roomy, false, '2 pending: still no room below 2');
    gates.shift()?.();
    await room;
    assert.equal(executor.pending(), 1);
  });

  it('given a record fetched again while still outstanding, then it runs once (the first delivery completes its offset)', async () => {
    let runs = 0;
    let release: () => void = () => undefined;
    const executor = new Executor(new InflightScheduler<R>(8), () => {
      runs++;
      return new Promise<void>((r) => (release = r));
    });
    const first = executor.run([rec(4, 'a')]);
    const again = executor.run([rec(4, 'a')]);
    release();
    await Promise.all([first, again]);
    assert.equal(runs, 1);
  });
});
