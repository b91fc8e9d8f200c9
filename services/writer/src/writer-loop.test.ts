import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SlowStartGate } from '@kcm-bus/runtime/mutation/index.ts';
import { aCreate, aMutation } from '@kcm-bus/runtime/mutation/mutation.fixture.ts';
import { realScheduler } from '@kcm-bus/runtime/workqueue/index.ts';
import { abortableSleep } from './backoff.ts';
import { AbandonedError } from './executor.ts';
import { withSlowStart } from './slow-start.ts';
import {
  applied,
  assignment,
  batchOf,
  batchOfMutations,
  eventually,
  given,
  noHeartbeat,
} from './writer-loop.fixture.ts';

describe('writer loop: probes tell the truth', () => {
  it('given a member, then ready only once assigned, not ready again after a crash until the next join, unhealthy once dead for good', async () => {
    const h = await given();
    assert.equal(h.loop.notReady(), 'joining the kcm-bus-writer group');
    await h.group.onAssigned?.(assignment(0, 1));
    assert.equal(h.loop.notReady(), undefined);
    h.group.onCrash(new Error('broker gone'), true);
    assert.equal(h.loop.notReady(), 'joining the kcm-bus-writer group');
    assert.equal(h.loop.healthy(), true);
    h.group.onCrash(new Error('broker gone'), false);
    assert.deepEqual([h.loop.healthy(), h.fatal], [false, ['the consumer crashed and will not restart']]);
  });
});

describe('writer loop: at-least-once without holes', () => {
  it('given a batch fetched again while its records are still outstanding, then each is applied once and committed', async () => {
    const { promise: released, resolve: release } = Promise.withResolvers<void>();
    const h = await given(async (m) => released.then(() => applied(m)));
    await h.group.onAssigned?.(assignment(0));
    const batch = await batchOf(0, 5, 'a', 'b');
    await h.group.onBatch(batch, noHeartbeat);
    await h.group.onBatch(batch, noHeartbeat);
    release();
    await eventually('the commit past b', () => h.commits.includes('0@7'));
    assert.deepEqual([h.applied, h.commits, h.fatal], [['a', 'b'], ['0@7'], []]);
  });

  it('given a batch redelivered after it was done (a commit that did not land), then it is applied again', async () => {
    const h = await given();
    await h.group.onAssigned?.(assignment(0));
    const batch = await batchOf(0, 5, 'a', 'b');
    await h.group.onBatch(batch, noHeartbeat);
    await eventually('the first delivery done', () => h.applied.length === 2);
    await h.group.onBatch(batch, noHeartbeat);
    await eventually('the second delivery done', () => h.applied.length === 4);
    assert.deepEqual([h.applied, h.commits, h.fatal], [['a', 'b', 'a', 'b'], ['0@7'], []]);
  });

  it('given a batch still being applied, then what is done of it is committed meanwhile (a writer killed in it re-applies only the rest)', async () => {
    const { promise: released, resolve: release } = Promise.withResolvers<void>();
    const h = await given(async (m) => (m.target.name === 'b' ? released.then(() => applied(m)) : applied(m)));
    await h.group.onAssigned?.(assignment(0));
    await h.group.onBatch(await batchOf(0, 5, 'a', 'b'), noHeartbeat);
    await eventually('the commit of a', () => h.commits.includes('0@6'));
    assert.deepEqual(h.commits, ['0@6'], 'a is done and b is not: the commit stops before b');
    release();
    await eventually('the commit of b', () => h.commits.includes('0@7'));
    assert.deepEqual([h.commits, h.fatal], [['0@6', '0@7'], []]);
  });

  it('given a partition lost in a rebalance, then its queued records are not applied and not committed', async () => {
    let release: () => void = () => undefined;
    const h = await given((m) => new Promise((resolve) => (release = () => resolve(applied(m)))));
    await h.group.onAssigned?.(assignment(0, 1));
    await h.group.onBatch(await batchOf(1, 0, 'k'), noHeartbeat);
    await h.group.onBatch(await batchOf(0, 0, 'l1', 'l2'), noHeartbeat);
    await h.group.onAssigned?.(assignment(1));
    release();
    await eventually('the commit of the kept partition', () => h.commits.includes('1@1'));
    assert.deepEqual([h.applied, h.commits, h.fatal], [['k'], ['1@1'], []]);
  });
});

describe('writer loop: a slow record holds only its own target (issue 41)', () => {
  it('given a record retried for long on one partition, then a batch of another partition is applied meanwhile, and each commits on its own', async () => {
    const { promise: released, resolve: release } = Promise.withResolvers<void>();
    const h = await given(async (m) => (m.target.name === 'slow' ? released.then(() => applied(m)) : applied(m)), 2);
    await h.group.onAssigned?.(assignment(0, 1));
    await h.group.onBatch(await batchOf(0, 0, 'slow'), noHeartbeat);
    await h.group.onBatch(await batchOf(1, 0, 'fast'), noHeartbeat);
    await eventually('the other partition applied and committed', () => h.commits.includes('1@1'));
    assert.deepEqual(h.applied, ['slow', 'fast']);
    assert.ok(!h.commits.some((c) => c.startsWith('0@')), 'the slow record is not committed past');
    release();
    await eventually('the slow one committed once done', () => h.commits.includes('0@1'));
  });
});

describe("writer loop: a controller's requests take its budget in the order it published them", () => {
  it("given a sync's pod create and its status update in one batch, then the create reaches the budget first (S8)", async () => {
    const reached: string[] = [];
    const slowStarted = withSlowStart(
      new SlowStartGate(),
      async (m) => (reached.push(m.verb), applied(m)),
      () => 'now',
    );
    const h = await given(slowStarted, 2);
    await h.group.onAssigned?.(assignment(0));
    const create = aCreate({ id: 'c', slowStart: { run: 'c', index: 0, size: 1 } });
    const body = JSON.stringify({ metadata: { name: 'web-1' }, status: {} });
    const status = aMutation({
      id: 's',
      verb: 'UpdateStatus',
      body,
      preconditions: { uid: 'u', resourceVersion: '4' },
    });
    await h.group.onBatch(await batchOfMutations(0, 0, [create, status]), noHeartbeat);
    await eventually('both applied', () => reached.length === 2);
    assert.deepEqual(reached, ['Create', 'UpdateStatus']);
  });
});

describe('writer loop: SIGTERM is prompt', () => {
  it('given a record waiting to retry, then stop abandons it at once: no commit, no fatal', async () => {
    const h = await given(async (_m, signal) => {
      await abortableSleep(60_000, realScheduler, signal);
      return assert.fail('the retry should have been abandoned');
    });
    await h.group.onAssigned?.(assignment(0));
    await h.group.onBatch(await batchOf(0, 0, 'a'), noHeartbeat);
    await eventually('a taken up', () => h.applied.length === 1);
    const started = Date.now();
    h.stopping.abort(new AbandonedError('the writer is stopping'));
    await h.loop.stop();
    assert.ok(Date.now() - started < 1000);
    assert.deepEqual([h.commits, h.fatal, h.loop.notReady()], [[], [], 'stopping']);
  });
});
