import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { MutationResult } from '../mutation/mutation-result.ts';
import { aCreate, aMutation, aRecordEvent, podTarget } from '../mutation/mutation.fixture.ts';
import { HELD_RETRY_MS } from '../controller/read-your-writes.ts';
import { FakeClock } from '../workqueue/fake-clock.ts';
import { ReplayWriter } from './replay-writer.ts';

/** writer is a ReplayWriter at 1000 ms whose history holds results of the ids `recorded`; answers are kept. */
function writer(recorded: readonly string[] = []) {
  const clock = new FakeClock(1000);
  const answers: MutationResult[] = [];
  const lives: boolean[] = [];
  return {
    clock,
    answers,
    lives,
    writer: new ReplayWriter(recorded, clock, (r, _cause, live) => void (answers.push(r), lives.push(live))),
  };
}

const deletePod = aMutation({ id: 'm-del', reconcileKey: 'default/web' });
const failedDelete: MutationResult = {
  mutationId: 'm-del',
  controller: deletePod.controller,
  verb: 'Delete',
  target: podTarget,
  outcome: 'Failed',
  status: 403,
  reason: 'Forbidden',
  message: 'no',
  name: 'web-1',
  resourceVersion: null,
  uid: null,
  attempts: 1,
  appliedAt: '2026-11-22T14:00:00Z',
  reconcileKey: 'default/web',
};

describe("ReplayWriter: the replay's own writes are answered as the history shows them done", () => {
  it('given a write, when the history shows its object, then it is answered Applied at once, its version unknown, and only once', () => {
    const h = writer();
    h.writer.published([deletePod, aRecordEvent()]);
    h.writer.seen('pods', 'default/other');
    assert.equal(h.answers.length, 0);
    h.clock.advance(200);
    h.writer.seen('pods', 'default/web-1');
    h.clock.advance(HELD_RETRY_MS);
    assert.deepEqual(
      h.answers.map((r) => [r.mutationId, r.outcome, r.resourceVersion, r.reconcileKey, r.appliedAt]),
      [['m-del', 'Applied', null, 'default/web', new Date(1200).toISOString()]],
    );
  });

  it('given a write the history never shows, then it is answered after HELD_RETRY_MS', () => {
    const h = writer();
    h.writer.published([deletePod]);
    h.clock.advance(HELD_RETRY_MS - 1);
    assert.equal(h.answers.length, 0);
    h.clock.advance(1);
    assert.deepEqual(
      h.answers.map((r) => r.mutationId),
      ['m-del'],
    );
  });

  it("given a write the history's results answer, then it waits for its result, or gets it at once when it was fed already (not reported again)", () => {
    const h = writer(['m-del']);
    h.writer.published([deletePod]);
    h.writer.seen('pods', 'default/web-1');
    h.clock.advance(HELD_RETRY_MS);
    assert.equal(h.answers.length, 0);
    h.writer.resulted(failedDelete, { topic: 'kcm.mutation-results', partition: 0, offset: 9 });
    h.writer.published([deletePod]);
    assert.deepEqual(
      h.answers.map((r) => [r.mutationId, r.outcome]),
      [['m-del', 'Failed']],
    );
    assert.deepEqual(h.lives, [false]);
  });

  it('given a create by generateName (no name the history could show), then it is answered at once', () => {
    const h = writer();
    h.writer.published([aCreate({ id: 'm-create', reconcileKey: 'default/web' })]);
    assert.deepEqual(
      h.answers.map((r) => [r.mutationId, r.outcome, r.appliedAt]),
      [['m-create', 'Applied', new Date(1000).toISOString()]],
    );
  });
});
