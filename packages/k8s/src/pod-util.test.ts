import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Pod } from './core-v1.ts';
import { isPodActive, isPodAvailable, isPodReady, podKey, podReadyCondition } from './pod-util.ts';

const NOW = new Date('2026-03-01T12:00:00Z');

function pod(
  phase: string,
  ready?: { readonly status: 'True' | 'False'; readonly since?: string },
  deleting?: string,
): Pod {
  const conditions =
    ready === undefined
      ? []
      : [
          {
            type: 'Ready',
            status: ready.status,
            ...(ready.since === undefined ? {} : { lastTransitionTime: ready.since }),
          },
        ];
  return {
    metadata: {
      name: 'p',
      namespace: 'ns',
      uid: 'u',
      ...(deleting === undefined ? {} : { deletionTimestamp: deleting }),
    },
    status: { phase, conditions },
  };
}

describe('podKey (controller.PodKey)', () => {
  it('given a pod, then its key is namespace/name', () => assert.equal(podKey(pod('Running')), 'ns/p'));
});

describe('isPodActive (controller.IsPodActive)', () => {
  it('given Pending or Running, then active; given Succeeded, Failed or terminating, then not', () => {
    assert.deepEqual([pod('Pending'), pod('Running')].map(isPodActive), [true, true]);
    assert.deepEqual(
      [pod('Succeeded'), pod('Failed'), pod('Running', undefined, '2026-03-01T11:00:00Z')].map(isPodActive),
      [false, false, false],
    );
  });
});

describe('isPodReady / podReadyCondition (podutil)', () => {
  it('given Ready True, then ready; given Ready False or no Ready condition, then not', () => {
    assert.equal(podReadyCondition(pod('Running', { status: 'True' }))?.type, 'Ready');
    assert.deepEqual(
      [pod('Running', { status: 'True' }), pod('Running', { status: 'False' }), pod('Running')].map(isPodReady),
      [true, false, false],
    );
  });
});

describe('isPodAvailable (podutil.IsPodAvailable)', () => {
  it('given minReadySeconds 0, then every ready pod is available, even without a transition time', () => {
    assert.equal(isPodAvailable(pod('Running', { status: 'True' }), 0, NOW), true);
  });
  it('given minReadySeconds 10, then a pod ready exactly 10 s is available, one ready 9 s or without a transition time is not', () => {
    assert.equal(isPodAvailable(pod('Running', { status: 'True', since: '2026-03-01T11:59:50Z' }), 10, NOW), true);
    assert.equal(isPodAvailable(pod('Running', { status: 'True', since: '2026-03-01T11:59:51Z' }), 10, NOW), false);
    assert.equal(isPodAvailable(pod('Running', { status: 'True' }), 10, NOW), false);
  });
  it('given a pod not ready, then it is not available', () =>
    assert.equal(isPodAvailable(pod('Running', { status: 'False', since: '2026-03-01T00:00:00Z' }), 0, NOW), false));
});
