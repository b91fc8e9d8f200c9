import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { podTarget } from '@kcm-bus/runtime/mutation/mutation.fixture.ts';
import type { MutationResult } from '@kcm-bus/runtime/mutation/index.ts';
import { resultLogLine } from './record-ports.ts';

describe('resultLogLine', () => {
  it('names the mutation, its reconcile key and the object as written (a generated name derived), so a line leads to trace', () => {
    const failed: MutationResult = {
      mutationId: 'm-7',
      controller: 'replicationcontroller-controller',
      verb: 'Create',
      target: { ...podTarget, name: '' },
      outcome: 'Failed',
      status: 500,
      reason: 'InternalError',
      message: 'etcdserver: request timed out',
      name: 'web-k2x9q',
      resourceVersion: null,
      uid: null,
      attempts: 3,
      appliedAt: '2026-11-23T20:00:00Z',
      reconcileKey: 'default/web',
    };
    assert.deepEqual(resultLogLine(failed), {
      mutationId: 'm-7',
      reconcileKey: 'default/web',
      controller: 'replicationcontroller-controller',
      verb: 'Create',
      target: 'pods default/web-k2x9q',
      status: 500,
      reason: 'InternalError',
      message: 'etcdserver: request timed out',
    });
  });
});
