import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Deployment } from '@kcm-bus/k8s/apps-v1.ts';
import {
  hasProgressDeadline,
  hasRevisionHistoryLimit,
  isRollingUpdate,
  MAX_INT32,
  progressDeadlineSecondsOf,
  replicasOf,
  revisionHistoryLimitOf,
  rollingUpdateOf,
} from './spec.ts';

const bare: Deployment = { metadata: { name: 'foo', uid: 'u' }, spec: {} };

describe('the readers of a Deployment as the apiserver defaults it (SetDefaults_Deployment)', () => {
  it('given a Deployment with nothing set, then 1 replica, a rolling update of 25%/25%, 10 revisions kept, a 600 s deadline', () => {
    assert.equal(replicasOf(bare), 1);
    assert.equal(isRollingUpdate(bare), true);
    assert.deepEqual(rollingUpdateOf(bare), { maxSurge: '25%', maxUnavailable: '25%' });
    assert.equal(revisionHistoryLimitOf(bare), 10);
    assert.equal(progressDeadlineSecondsOf(bare), 600);
    assert.equal(hasRevisionHistoryLimit(bare), true);
    assert.equal(hasProgressDeadline(bare), true);
  });

  it('given set values, then they; MaxInt32 limits mean none; a Recreate Deployment has no rolling update', () => {
    const d: Deployment = {
      ...bare,
      spec: {
        replicas: 0,
        strategy: { type: 'Recreate' },
        revisionHistoryLimit: MAX_INT32,
        progressDeadlineSeconds: MAX_INT32,
      },
    };
    assert.equal(replicasOf(d), 0);
    assert.equal(rollingUpdateOf(d), undefined);
    assert.equal(hasRevisionHistoryLimit(d), false);
    assert.equal(hasProgressDeadline(d), false);
  });
});
