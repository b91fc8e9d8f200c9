import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { WATCHER_FLAGS } from './flags.ts';

describe('WATCHER_FLAGS', () => {
  it('given the catalog, then the creations of every kind a controller syncs at a cut bring the watermarks at once (--watermark-prompt-kinds)', () => {
    assert.deepEqual(WATCHER_FLAGS.find((f) => f.name === 'watermark-prompt-kinds')?.default, [
      'replicationcontrollers',
      'replicasets',
      'deployments',
      'services',
    ]);
  });
});
