import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { applyMutations } from '@kcm-bus/k8s/cluster.fixture.ts';
import { newCluster, podEvents, type PodWatchEvent, type SetCluster } from './cluster.fixture.ts';
import { newRc, T0 } from './rc.fixture.ts';
import { deliver, type ExpectationsModel, expectationsModel, nextCause, podWrites, sync } from './sync.fixture.ts';

const KEY = 'default/foobar';

/**
 * round is one pass of the pipeline: reconcile with the current expectations, record the expectation change,
 * apply the writes; the watch events come back to the caller, who delivers them (handlers → expectations).
 */
function round(
  c: SetCluster,
  exp: ExpectationsModel,
  burstReplicas: number,
): { creates: number; deletes: number; watch: PodWatchEvent[] } {
  const result = sync(c, KEY, { expectations: exp.view(KEY), burstReplicas, cause: nextCause() });
  exp.record(KEY, result.expectations);
  const { watch } = applyMutations(c, result.mutations, T0);
  const { creates, deletes } = podWrites(result);
  return { creates, deletes, watch: podEvents(watch) };
}

/**
 * doTestControllerBurstReplicas mirrors upstream's: size the RC up to numReplicas, then down to 0; every sync writes
 * at most burstReplicas pods, and until every expected pod event is observed the RC writes nothing more; a deletion
 * observed twice counts once.
 */
function doTestControllerBurstReplicas(burstReplicas: number, numReplicas: number): void {
  const c = newCluster([newRc(numReplicas)]);
  const exp = expectationsModel();
  while (c.objects.pods.size < numReplicas) {
    const { creates, watch } = round(c, exp, burstReplicas);
    assert.ok(creates > 0 && creates <= burstReplicas, `created ${creates}`);
    deliver(c, exp, watch.slice(0, -1));
    assert.deepEqual(exp.pending(KEY), { add: 1, del: 0 });
    assert.deepEqual(podWrites(sync(c, KEY, { expectations: exp.view(KEY), burstReplicas })), {
      creates: 0,
      deletes: 0,
      patches: 0,
    });
    deliver(c, exp, watch.slice(-1));
  }
  assert.equal(c.objects.pods.size, numReplicas);
  c.objects.replicationcontrollers.set(KEY, newRc(0, undefined, { metadata: { resourceVersion: '99' } }));
  while (c.objects.pods.size > 0) {
    const before = c.objects.pods.size;
    const { deletes, watch } = round(c, exp, burstReplicas);
    assert.equal(deletes, Math.min(burstReplicas, before));
    deliver(c, exp, watch.slice(0, -1));
    deliver(c, exp, watch.slice(0, -1));
    assert.deepEqual(exp.pending(KEY), { add: 0, del: 1 });
    assert.equal(exp.view(KEY).pendingDeletes.length, 1);
    assert.deepEqual(podWrites(sync(c, KEY, { expectations: exp.view(KEY), burstReplicas })), {
      creates: 0,
      deletes: 0,
      patches: 0,
    });
    deliver(c, exp, watch.slice(-1));
  }
}

describe('TestControllerBurstReplicas', () => {
  for (const [burst, replicas] of [
    [5, 30],
    [5, 12],
    [3, 2],
  ] as const) {
    it(`given burstReplicas=${burst} and ${replicas} replicas, when scaled up and down through the pipeline, then no sync exceeds the burst or acts before its pods are observed`, () => {
      doTestControllerBurstReplicas(burst, replicas);
    });
  }
});

describe('reconcile + handlers: a scale-up observed through the watch converges with expectations', () => {
  it('given 0 → 20 replicas, when every round waits for its observations, then exactly 20 pods exist after one run of 20 creates', () => {
    const c = newCluster([newRc(20)]);
    const exp = expectationsModel();
    const batches: number[] = [];
    for (let i = 0; i < 10 && c.objects.pods.size < 20; i++) {
      const { creates, watch } = round(c, exp, 500);
      batches.push(creates);
      deliver(c, exp, watch);
    }
    assert.deepEqual(batches, [20]);
    assert.equal(c.objects.pods.size, 20);
  });
});
