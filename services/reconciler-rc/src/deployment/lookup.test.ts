import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Deployment, ReplicaSet } from '@kcm-bus/k8s/apps-v1.ts';
import type { Pod } from '@kcm-bus/k8s/core-v1.ts';
import { listerOf } from '@kcm-bus/k8s/lister.fixture.ts';
import { realisticPod } from '@kcm-bus/runtime/codec/realistic-pod.fixture.ts';
import { throughFields } from '@kcm-bus/runtime/codec/view.fixture.ts';
import type { AvroRecord } from '@kcm-bus/schemas/avro/avro-schema.ts';
import { watchedKind } from '@kcm-bus/schemas/kinds.ts';
import { loadWatchSchema } from '@kcm-bus/schemas/watch-schemas.fs.ts';
import { newDeployment, newReplicaSet } from './deployment.fixture.ts';
import {
  DEPLOYMENT_INDEXERS,
  getDeploymentForPod,
  getDeploymentsForReplicaSet,
  POD_FIELDS,
  POD_INDEXERS,
  REPLICA_SET_INDEXERS,
  resolveControllerRef,
} from './lookup.ts';
import { getPodMapForDeployment, oldPodsRunning } from './recreate.ts';

const deployments = (...ds: Deployment[]) => listerOf(ds, DEPLOYMENT_INDEXERS);

describe('TestGetDeploymentsForReplicaSet', () => {
  const ds = [0, 1, 2].map((i) => ({
    ...newDeployment(`deployment-${i}`, 1, { selector: { app: `test-${i}` } }),
    metadata: { ...newDeployment(`deployment-${i}`, 1).metadata, namespace: 'test' },
  }));
  const rsOf = (i: number): ReplicaSet => ({
    metadata: {
      name: `test-replicaSet-${i}`,
      namespace: 'test',
      uid: `u${i}`,
      labels: { app: `test-${i}`, label: `label-${i}` },
    },
    spec: {},
  });
  for (const i of [0, 1, 2, 3, 4]) {
    it(`given rs-${i}, then ${i < 3 ? `deployment-${i}` : 'none'}`, () => {
      assert.deepEqual(
        getDeploymentsForReplicaSet(rsOf(i), deployments(...ds)).map((d) => d.metadata.name),
        i < 3 ? [`deployment-${i}`] : [],
      );
    });
  }

  it('given a ReplicaSet without labels, or Deployments with an empty or invalid selector, then none', () => {
    const empty = { ...ds[0]!, spec: { ...ds[0]!.spec, selector: {} } };
    const invalid = {
      ...ds[1]!,
      spec: { ...ds[1]!.spec, selector: { matchExpressions: [{ key: 'app', operator: 'Bogus' }] } },
    };
    assert.deepEqual(getDeploymentsForReplicaSet(rsOf(0), deployments(empty, invalid)), []);
    assert.deepEqual(
      getDeploymentsForReplicaSet({ ...rsOf(0), metadata: { ...rsOf(0).metadata, labels: {} } }, deployments(...ds)),
      [],
    );
  });
});

describe('resolveControllerRef, getDeploymentForPod', () => {
  const d = newDeployment('foo', 1);
  const r = newReplicaSet(d, 'foo-1', 1);
  const pod: Pod = {
    metadata: {
      name: 'p',
      namespace: 'default',
      uid: 'up',
      ownerReferences: [
        { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'foo-1', uid: 'uid-foo-1', controller: true },
      ],
    },
  };
  it('given a reference of kind Deployment, the right name and UID, then the Deployment; another kind or UID, then none', () => {
    const ref = r.metadata.ownerReferences![0]!;
    assert.equal(resolveControllerRef('default', ref, deployments(d)), d);
    assert.equal(resolveControllerRef('default', { ...ref, uid: 'other' }, deployments(d)), undefined);
    assert.equal(resolveControllerRef('default', { ...ref, kind: 'StatefulSet' }, deployments(d)), undefined);
  });
  it("given a pod of the Deployment's ReplicaSet, then the Deployment; of a recreated namesake ReplicaSet, then none", () => {
    const sets = listerOf([r], REPLICA_SET_INDEXERS);
    assert.equal(getDeploymentForPod(pod, sets, deployments(d)), d);
    assert.equal(
      getDeploymentForPod(
        pod,
        listerOf([{ ...r, metadata: { ...r.metadata, uid: 'new' } }], REPLICA_SET_INDEXERS),
        deployments(d),
      ),
      undefined,
    );
  });
});

describe('POD_FIELDS (the pods input decoded through a reader schema of these alone)', () => {
  it('given a pod as the apiserver serves it, decoded through POD_FIELDS, then the pod map and oldPodsRunning read as from the whole pod', async () => {
    const schema = loadWatchSchema(watchedKind('pods')) as AvroRecord;
    const whole = realisticPod as unknown as Pod;
    const read = await throughFields(schema, POD_FIELDS, whole);
    assert.equal(read.spec?.containers, undefined, 'containers are skipped, not built');
    const owner = whole.metadata.ownerReferences?.find((o) => o.controller)!;
    const rsOfPod: ReplicaSet = {
      metadata: { name: owner.name, namespace: whole.metadata.namespace ?? '', uid: owner.uid },
      spec: {},
    };
    const map = (p: Pod) => getPodMapForDeployment(listerOf([p], POD_INDEXERS), [rsOfPod]);
    assert.deepEqual(
      [...map(read)].map(([uid, ps]) => [uid, ps.map((p) => [p.metadata.name, p.status?.phase])]),
      [...map(whole)].map(([uid, ps]) => [uid, ps.map((p) => [p.metadata.name, p.status?.phase])]),
    );
    assert.equal(oldPodsRunning(undefined, [], map(read)), oldPodsRunning(undefined, [], map(whole)));
    assert.deepEqual(read.metadata.ownerReferences, whole.metadata.ownerReferences);
  });
});
