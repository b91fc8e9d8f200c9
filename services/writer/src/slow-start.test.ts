import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type MutationResult, type Mutation, SlowStartGate } from '@kcm-bus/runtime/mutation/index.ts';
import { aCreate, aMutation } from '@kcm-bus/runtime/mutation/mutation.fixture.ts';
import { refusedResult, resultOf } from './result.ts';
import { withSlowStart } from './slow-start.ts';

const SIZE = 10;
const run = Array.from({ length: SIZE }, (_, index) =>
  aCreate({ id: `m-${index}`, slowStart: { run: 'm-0', index, size: SIZE } }),
);
const ok = (m: Mutation): MutationResult =>
  resultOf(
    m,
    `pod-${m.id}`,
    { type: 'Final', outcome: 'Applied', status: 201, reason: null, message: '', uid: 'u', resourceVersion: '1' },
    1,
    'now',
  );
const quota = (m: Mutation): MutationResult =>
  resultOf(
    m,
    `pod-${m.id}`,
    {
      type: 'Final',
      outcome: 'Failed',
      status: 403,
      reason: 'Forbidden',
      message: 'exceeded quota: pods',
      uid: null,
      resourceVersion: null,
    },
    1,
    'now',
  );
const terminating = (m: Mutation): MutationResult => ({ ...quota(m), reason: 'NamespaceTerminating' });

/** given applies a run through withSlowStart, the apiserver answering by index; returns what reached it and each outcome. */
async function given(
  answer: (index: number, m: Mutation) => MutationResult,
): Promise<{ calls: number[]; outcomes: string[] }> {
  const calls: number[] = [];
  const apply = withSlowStart(
    new SlowStartGate(),
    async (m) => {
      calls.push(m.slowStart!.index);
      await Promise.resolve();
      return answer(m.slowStart!.index, m);
    },
    () => 'now',
  );
  const results = await Promise.all(run.map(apply));
  return {
    calls: calls.sort((a, b) => a - b),
    outcomes: results.map((r) => (r.reason === 'SlowStartSkipped' ? 'skipped' : r.outcome)),
  };
}

describe("withSlowStart: a run of creates as upstream's slowStartBatch, in the writer", () => {
  it('given a quota of 5 pods, then batches of 1, 2 and 4 reach the apiserver (7 calls) and the 3 others are skipped', async () => {
    const { calls, outcomes } = await given((i, m) => (i < 5 ? ok(m) : quota(m)));
    assert.deepEqual(calls, [0, 1, 2, 3, 4, 5, 6]);
    assert.deepEqual(outcomes, [
      'Applied',
      'Applied',
      'Applied',
      'Applied',
      'Applied',
      'Failed',
      'Failed',
      'skipped',
      'skipped',
      'skipped',
    ]);
  });

  it('given a terminating namespace, then the run goes on (manageReplicas counts it as no error)', async () => {
    assert.equal((await given((_, m) => terminating(m))).calls.length, SIZE);
  });

  it('given a mutation outside any run, then it is applied at once', async () => {
    const apply = withSlowStart(
      new SlowStartGate(),
      async (m) => refusedResult(m, 'X', 'seen', 'now'),
      () => 'now',
    );
    assert.equal((await apply(aMutation())).message, 'seen');
  });

  it('given a member abandoned mid-way (the writer stopping), then it fails nothing: the next batch still goes', async () => {
    const gate = new SlowStartGate();
    const apply = withSlowStart(
      gate,
      async (m) => {
        if (m.slowStart!.index === 0) throw new Error('abandoned');
        return ok(m);
      },
      () => 'now',
    );
    await assert.rejects(apply(run[0]!), /abandoned/);
    assert.equal((await apply(run[1]!)).outcome, 'Applied');
  });
});
