import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { groupLabel } from './client-taps.kafka.ts';

describe('groupLabel', () => {
  it("given an ephemeral group's id, then its name without the random suffix", () => {
    const uuid = '0f8e2c1a-3b4d-4e5f-8a9b-0c1d2e3f4a5b';
    assert.equal(groupLabel(`kcm-bus-reconciler-node.global.${uuid}`), 'kcm-bus-reconciler-node.global');
    assert.equal(groupLabel(`kcm-bus-read-${uuid}`), 'kcm-bus-read');
  });

  it('given a shared group, then its id as it is', () => {
    assert.equal(groupLabel('kcm-bus-reconciler-rc'), 'kcm-bus-reconciler-rc');
    assert.equal(groupLabel('kcm-bus-writer.0f8e2c1a'), 'kcm-bus-writer.0f8e2c1a');
  });
});
