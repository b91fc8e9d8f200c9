import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { timeOrAge } from './window.ts';

describe('timeOrAge', () => {
  const now = Date.parse('2026-11-23T12:00:00Z');

  it('reads RFC 3339 times and ages before now', () => {
    assert.equal(timeOrAge('2026-11-23T10:42:07Z', now), Date.parse('2026-11-23T10:42:07Z'));
    assert.equal(timeOrAge('90s', now), now - 90_000);
    assert.equal(timeOrAge('2h', now), now - 7_200_000);
    assert.equal(timeOrAge('1d', now), now - 86_400_000);
  });

  it('refuses anything else, naming it', () => {
    assert.throws(() => timeOrAge('yesterday', now), /"yesterday" is neither an RFC 3339 time nor an age/);
    assert.throws(() => timeOrAge('10w', now), /"10w"/);
  });
});
