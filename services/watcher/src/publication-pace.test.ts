import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { watchedKind } from '@kcm-bus/schemas/kinds.ts';
import { GAP_MS, publicationPace } from './publication-pace.ts';

describe('publicationPace', () => {
  const lingering = new Set([watchedKind('leases')]);

  it('given a lingering kind, then each publication waits the linger after the last', () => {
    assert.deepEqual(publicationPace(watchedKind('leases'), lingering, 200), { gapMs: 200, maxGapMs: 200 });
  });

  it('given any other kind, then it waits the short gap, longer after a large publication', () => {
    assert.deepEqual(publicationPace(watchedKind('pods'), lingering, 200), { gapMs: GAP_MS, maxGapMs: 10 });
  });
});
