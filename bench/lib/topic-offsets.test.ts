import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { advance } from './topic-offsets.ts';

describe('advance', () => {
  it("is each topic's offsets gained, a topic created meanwhile counted from 0 and an idle one left out", () => {
    const start = new Map([
      ['kcm.watch.pods', 100],
      ['kcm.mutations', 7],
    ]);
    const now = new Map([
      ['kcm.watch.pods', 160],
      ['kcm.mutations', 7],
      ['kcm.mutation-results', 12],
    ]);
    assert.deepEqual(advance(start, now), { 'kcm.watch.pods': 60, 'kcm.mutation-results': 12 });
  });
});
