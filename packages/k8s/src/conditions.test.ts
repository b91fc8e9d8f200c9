import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { getCondition, removeCondition, setCondition } from './conditions.ts';
import type { ReplicationControllerCondition, ReplicationControllerStatus } from './core-v1.ts';

const imagePullBackOff: ReplicationControllerCondition = {
  type: 'ImagePullBackOff',
  status: 'True',
  reason: 'NonExistentImage',
};
const replicaFailure: ReplicationControllerCondition = {
  type: 'ReplicaFailure',
  status: 'True',
  reason: 'OtherFailure',
};
const replicaFailure2: ReplicationControllerCondition = {
  type: 'ReplicaFailure',
  status: 'True',
  reason: 'AnotherFailure',
};
const withFailure: ReplicationControllerStatus = { replicas: 0, conditions: [replicaFailure] };
const noConditions: ReplicationControllerStatus = { replicas: 0 };
const withImagePullBackOff: ReplicationControllerStatus = { replicas: 0, conditions: [imagePullBackOff] };

describe('TestGetCondition', () => {
  it('given "condition exists", then it is returned', () =>
    assert.deepEqual(getCondition(withFailure, 'ReplicaFailure'), replicaFailure));
  it('given "condition does not exist", then none is', () =>
    assert.equal(getCondition(withFailure, 'ImagePullBackOff'), undefined));
});

describe('TestSetCondition', () => {
  it('given "set for the first time", then it is the only condition', () => {
    assert.deepEqual(setCondition(noConditions, replicaFailure).conditions, [replicaFailure]);
  });
  it('given "simple set", then it is appended', () => {
    assert.deepEqual(setCondition(withImagePullBackOff, replicaFailure).conditions, [imagePullBackOff, replicaFailure]);
  });
  it('given "overwrite", then a different reason replaces the condition of that type', () => {
    assert.deepEqual(setCondition(withFailure, replicaFailure2).conditions, [replicaFailure2]);
  });
  it('given the same status and reason, then nothing changes (the old lastTransitionTime stays)', () => {
    assert.equal(setCondition(withFailure, { ...replicaFailure, message: 'new' }), withFailure);
  });
});

describe('TestRemoveCondition', () => {
  it('given "remove from empty status", then there are still none', () =>
    assert.equal(removeCondition(noConditions, 'ReplicaFailure').conditions, undefined));
  it('given "simple remove", then it is gone', () =>
    assert.equal(removeCondition(withFailure, 'ReplicaFailure').conditions, undefined));
  it('given "doesn\'t remove anything", then the others stay', () => {
    assert.deepEqual(removeCondition(withImagePullBackOff, 'ReplicaFailure').conditions, [imagePullBackOff]);
  });
});
