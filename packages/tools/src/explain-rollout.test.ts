import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { aMutation } from '@kcm-bus/runtime/mutation/mutation.fixture.ts';
import type { Mutation } from '@kcm-bus/runtime/mutation/index.ts';
import { explainRollout } from './explain-rollout.ts';
import type { Version } from './history-format.ts';
import type { Json } from './object-diff.ts';

const version = (timestamp: number, object: Json): Version => ({
  topic: 'kcm.watch.x',
  partition: 0,
  offset: '1',
  timestamp,
  observedAt: '',
  resourceVersion: String(timestamp),
  type: 'Applied',
  object,
});
const annotated = (revision: string) => ({ annotations: { 'deployment.kubernetes.io/revision': revision } });
const deployment = (revision: string, strategy: Json) =>
  version(100, { metadata: annotated(revision), spec: { replicas: 10, strategy } });
const rolling = { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: 2 } };
const rs = (revision: string, replicas: number): Json => ({ metadata: annotated(revision), spec: { replicas } });
const write = (verb: Mutation['verb'], body: Json | null): Mutation =>
  aMutation({
    controller: 'deployment-controller',
    verb,
    reconcileKey: 'demo/web',
    body: body === null ? null : JSON.stringify(body),
  });

describe("explainRollout: a Deployment controller's write of a ReplicaSet in the rollout's words", () => {
  it('given the new ReplicaSet scaled up, then the revision, the step of the replicas wanted and the strategy', () => {
    assert.equal(
      explainRollout(write('Update', rs('3', 4)), version(150, rs('3', 2)), [deployment('3', rolling)], 200),
      'rollout of revision 3 of Deployment demo/web: scaled up from 2 to 4 of 10 replicas (RollingUpdate, maxSurge 25%, maxUnavailable 2)',
    );
  });

  it('given an old ReplicaSet scaled down, then its own revision too', () => {
    assert.equal(
      explainRollout(write('Update', rs('2', 6)), version(150, rs('2', 8)), [deployment('3', rolling)], 200),
      'rollout of revision 3 of Deployment demo/web: scaled down from 8 to 6 of 10 replicas, the old ReplicaSet of revision 2 (RollingUpdate, maxSurge 25%, maxUnavailable 2)',
    );
  });

  it("given the new ReplicaSet created in the sync that raised the revision, then its revision is the rollout's, from 0", () => {
    assert.equal(
      explainRollout(write('Create', rs('4', 3)), undefined, [deployment('3', { type: 'Recreate' })], 200),
      'rollout of revision 4 of Deployment demo/web: scaled up from 0 to 3 of 10 replicas (Recreate)',
    );
  });

  it('given an update that keeps the replicas, a cleanup, or no version of the Deployment from before, then says so', () => {
    const d = [deployment('3', {})];
    assert.match(
      explainRollout(write('Update', rs('3', 4)), version(150, rs('2', 4)), d, 200) ?? '',
      /: annotations and settings synced \(RollingUpdate, maxSurge 25%, maxUnavailable 25%\)$/,
    );
    assert.match(
      explainRollout(write('Delete', null), version(150, rs('1', 0)), d, 200) ?? '',
      /: cleaned up, the old ReplicaSet of revision 1 /,
    );
    assert.equal(explainRollout(write('Update', rs('3', 4)), undefined, d, 50), undefined);
  });
});
