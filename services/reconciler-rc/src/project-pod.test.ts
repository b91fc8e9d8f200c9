import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Pod } from '@kcm-bus/k8s/core-v1.ts';
import { realisticPod } from '@kcm-bus/runtime/codec/realistic-pod.fixture.ts';
import { throughFields } from '@kcm-bus/runtime/codec/view.fixture.ts';
import type { AvroRecord } from '@kcm-bus/schemas/avro/avro-schema.ts';
import { loadWatchSchema } from '@kcm-bus/schemas/watch-schemas.fs.ts';
import { POD_DELETION_COST } from './active-pods-with-ranks.ts';
import { newCluster } from './cluster.fixture.ts';
import { PROJECTED_POD_FIELDS, projectPod } from './project-pod.ts';
import { at, newPod, newRc } from './rc.fixture.ts';
import { PODS } from './replica-set-kind.ts';
import { sync } from './sync.fixture.ts';

const POD_SCHEMA = loadWatchSchema(PODS) as AvroRecord;

describe('projectPod: reconciler-rc keeps only what it reads of a pod', () => {
  it('given pods of every rank, when the stores hold them projected, then scaling down decides exactly as on the whole pods', () => {
    const rc = newRc(2);
    const pods = [
      newPod('running', rc, { node: 'n1', readySince: at(-100), restarts: 3 }),
      newPod('pending', rc, { phase: 'Pending', node: 'n1' }),
      newPod('unscheduled', rc, { phase: 'Pending' }),
      newPod('costly', rc, { node: 'n2', annotations: { [POD_DELETION_COST]: '100', other: 'x' } }),
      newPod('young', rc, { node: 'n2', readySince: at(-1), created: at(-5) }),
      newPod('old', rc, { node: 'n2', readySince: at(-1000), created: at(-2000) }),
      newPod('going', rc, { node: 'n1', deleting: at(-3) }),
      newPod('not-ready', rc, { node: 'n1', ready: false }),
    ];
    const whole = sync(newCluster([rc], pods), 'default/foobar');
    const projected = sync(newCluster([rc], pods.map(projectPod)), 'default/foobar');
    assert.ok(
      whole.mutations.some((m) => m.verb === 'Delete'),
      'the scenario deletes pods',
    );
    assert.deepEqual(projected, whole);
  });

  it('given a pod as the apiserver serves it, then identity, owners, times, node, phase and readiness stay; containers, volumes, managedFields and other annotations go', () => {
    const pod = projectPod(realisticPod) as Pod & Record<string, unknown>;
    const source = realisticPod as unknown as Pod;
    assert.deepEqual(pod.metadata, {
      name: source.metadata.name,
      uid: source.metadata.uid,
      namespace: source.metadata.namespace,
      resourceVersion: source.metadata.resourceVersion,
      creationTimestamp: source.metadata.creationTimestamp,
      labels: source.metadata.labels,
      ownerReferences: source.metadata.ownerReferences,
    });
    assert.equal(pod.spec?.nodeName, source.spec?.nodeName);
    assert.equal(pod.status?.phase, source.status?.phase);
    assert.deepEqual(
      pod.status?.conditions?.map((c) => c.type),
      ['Ready'],
    );
    assert.ok(
      JSON.stringify(pod).length < JSON.stringify(realisticPod).length / 4,
      'a small fraction of the whole pod',
    );
  });

  it("given pods decoded through PROJECTED_POD_FIELDS (the input's reader schema), then projectPod keeps what it keeps of the whole pods", async () => {
    const rc = newRc(2);
    const pods = [
      realisticPod,
      newPod('running', rc, { node: 'n1', readySince: at(-100), restarts: 3 }),
      newPod('unscheduled', rc, { phase: 'Pending' }),
      newPod('costly', rc, { node: 'n2', annotations: { [POD_DELETION_COST]: '100' } }),
      newPod('going', rc, { node: 'n1', deleting: at(-3) }),
    ];
    for (const pod of pods)
      assert.deepEqual(projectPod(await throughFields(POD_SCHEMA, PROJECTED_POD_FIELDS, pod)), projectPod(pod));
    const read = await throughFields(POD_SCHEMA, PROJECTED_POD_FIELDS, realisticPod as unknown as Pod);
    assert.equal(read.spec?.containers, undefined, 'containers are skipped, not built');
  });
});
