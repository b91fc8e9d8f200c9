import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { listerOf } from '@kcm-bus/k8s/lister.fixture.ts';
import { deploymentControllerSpec, MAX_RETRIES } from './controller-spec.ts';
import { newDeployment, newReplicaSet, T0 } from './deployment.fixture.ts';
import { DEPLOYMENT_INDEXERS, POD_INDEXERS, REPLICA_SET_INDEXERS } from './lookup.ts';

describe('deploymentControllerSpec', () => {
  const d = newDeployment('foo', 1);
  const rs = newReplicaSet(d, 'foo-1', 1);
  const spec = deploymentControllerSpec({
    deployments: listerOf([d], DEPLOYMENT_INDEXERS),
    replicaSets: listerOf([rs], REPLICA_SET_INDEXERS),
    pods: listerOf([], POD_INDEXERS),
  });

  it("given a ReplicaSet event, then the handlers wake its Deployment; given the key, then reconcile is syncDeployment over the spec's listers", () => {
    assert.deepEqual(
      spec.handlers.replicaSets({ type: 'Deleted', key: 'default/foo-1', object: rs, old: rs, live: true }),
      { enqueue: ['default/foo'] },
    );
    const decision = spec.reconcile('default/foo', {
      expectations: { satisfied: true, pendingCreates: [], pendingDeletes: [] },
      failures: [],
      now: T0,
      cause: [],
      attempt: 0,
      fresh: true,
    });
    assert.deepEqual(
      decision.mutations.map((m) => [m.controller, m.verb, m.target.resource]),
      [
        ['deployment-controller', 'Update', 'replicasets'],
        ['deployment-controller', 'UpdateStatus', 'deployments'],
      ],
      'the ReplicaSet takes revision 1, the Deployment too',
    );
  });

  it('given a failing Deployment, then it is dropped after 15 retries (upstream maxRetries); no expectations kept', () => {
    assert.equal(spec.maxRetries, MAX_RETRIES);
    assert.equal(MAX_RETRIES, 15);
    assert.equal(spec.observedInStores, undefined);
  });
});
