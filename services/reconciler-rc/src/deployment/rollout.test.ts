import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Deployment, ReplicaSet } from '@kcm-bus/k8s/apps-v1.ts';
import { applyMutations, failuresOf } from '@kcm-bus/k8s/cluster.fixture.ts';
import type { MutationResult } from '@kcm-bus/runtime/mutation/index.ts';
import { DESIRED_REPLICAS, REVISION } from './annotations.ts';
import { PROGRESSING, REASONS } from './conditions.ts';
import { newDeployment, T0 } from './deployment.fixture.ts';
import { replicasOf } from './spec.ts';
import { type DeploymentCluster, newCluster, sync } from './sync.fixture.ts';

const KEY = 'default/foo';

/** settle plays the ReplicaSet controller with instant pods: every ReplicaSet's pods exist and are available. */
function settle(c: DeploymentCluster): void {
  for (const [key, r] of c.objects.replicasets) {
    const n = replicasOf(r);
    const status = {
      replicas: n,
      readyReplicas: n,
      availableReplicas: n,
      terminatingReplicas: 0,
      observedGeneration: 1,
    };
    c.objects.replicasets.set(key, { ...r, metadata: { ...r.metadata, generation: 1 }, status });
  }
}

/** roll syncs, applies and settles until a sync writes nothing, checking each round's bounds; returns the rounds. */
function roll(c: DeploymentCluster, check: (sets: readonly ReplicaSet[]) => void): number {
  let failures: MutationResult[] = [];
  for (let round = 0; round < 30; round++) {
    const result = sync(c, KEY, { failures });
    assert.equal(result.error, undefined);
    if (result.mutations.length === 0) return round;
    failures = failuresOf(applyMutations(c, result.mutations, T0).results);
    check([...c.objects.replicasets.values()]);
    settle(c);
  }
  assert.fail('the rollout did not end');
}

const withImage = (d: Deployment, image: string): Deployment => ({
  ...d,
  metadata: { ...d.metadata, generation: (d.metadata.generation ?? 1) + 1 },
  spec: { ...d.spec, template: { ...d.spec.template, spec: { containers: [{ name: 'c', image }] } as object } },
});

describe('a rollout from one template to another, end to end (with instant pods)', () => {
  for (const [name, strategy] of [
    ['RollingUpdate maxSurge 1 maxUnavailable 1', { maxSurge: 1, maxUnavailable: 1 }],
    ['RollingUpdate maxSurge 25% maxUnavailable 0', { maxSurge: '25%', maxUnavailable: 0 }],
    ['Recreate', { recreate: true }],
  ] as const) {
    it(`given 4 replicas and ${name}, then the new ReplicaSet ends with 4, the old with 0, the bounds held each round, the rollout complete`, () => {
      const d = newDeployment('foo', 4, { ...strategy, progressDeadlineSeconds: 600 });
      const c = newCluster([d]);
      roll(c, () => undefined);
      const [first] = [...c.objects.replicasets.values()];
      c.objects.deployments.set(KEY, withImage(c.objects.deployments.get(KEY)!, 'foo/baz'));
      roll(c, (sets) => {
        const total = sets.reduce((n, r) => n + replicasOf(r), 0);
        const available = sets.reduce((n, r) => n + (r.status?.availableReplicas ?? 0), 0);
        if ('recreate' in strategy)
          assert.ok(sets.filter((r) => replicasOf(r) > 0).length <= 1, 'never two sizes at once');
        else {
          assert.ok(total <= 5, `${total} pods, at most 4 + maxSurge (1 and 25% of 4 alike)`);
          assert.ok(available >= 4 - strategy.maxUnavailable, `${available} available at least 4 - maxUnavailable`);
        }
      });
      const sets = [...c.objects.replicasets.values()];
      const newRS = sets.find((r) => r.metadata.name !== first!.metadata.name)!;
      assert.deepEqual(
        sets.map((r) => [r.metadata.name === first!.metadata.name ? 'old' : 'new', replicasOf(r)]).sort(),
        [
          ['new', 4],
          ['old', 0],
        ],
      );
      assert.deepEqual(
        [newRS.metadata.annotations?.[REVISION], newRS.metadata.annotations?.[DESIRED_REPLICAS]],
        ['2', '4'],
      );
      const done = c.objects.deployments.get(KEY)!;
      assert.equal(done.metadata.annotations?.[REVISION], '2');
      const progressing = done.status?.conditions?.find((x) => x.type === PROGRESSING);
      assert.deepEqual(
        [progressing?.reason, done.status?.updatedReplicas, done.status?.observedGeneration],
        [REASONS.NewRSAvailableReason, 4, 2],
      );
    });
  }

  it('given revisionHistoryLimit 0, then the old ReplicaSet is deleted once the rollout completed', () => {
    const c = newCluster([newDeployment('foo', 2, { maxSurge: 1, maxUnavailable: 0, revisionHistoryLimit: 0 })]);
    roll(c, () => undefined);
    c.objects.deployments.set(KEY, withImage(c.objects.deployments.get(KEY)!, 'foo/baz'));
    roll(c, () => undefined);
    assert.equal(c.objects.replicasets.size, 1);
    assert.equal(replicasOf([...c.objects.replicasets.values()][0]!), 2);
  });
});
