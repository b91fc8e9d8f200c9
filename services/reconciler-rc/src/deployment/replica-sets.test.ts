import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Deployment, ReplicaSet } from '@kcm-bus/k8s/apps-v1.ts';
import { DESIRED_REPLICAS, REVISION } from './annotations.ts';
import { at, newDeployment, newReplicaSet, rs } from './deployment.fixture.ts';
import { POD_TEMPLATE_HASH } from './hash.ts';
import {
  byRevision,
  bySizeNewer,
  bySizeOlder,
  findActiveOrLatest,
  findNewReplicaSet,
  findOldReplicaSets,
  isSaturated,
  newRSNewReplicas,
  replicaCount,
  sorted,
  statusCount,
  terminatingReplicaCount,
} from './replica-sets.ts';

const names = (list: readonly (ReplicaSet | undefined)[]): (string | undefined)[] => list.map((r) => r?.metadata.name);
const withTemplateLabel = (r: ReplicaSet, hash: string, created: string): ReplicaSet => ({
  ...r,
  metadata: { ...r.metadata, creationTimestamp: created },
  spec: {
    ...r.spec,
    template: {
      ...r.spec.template,
      metadata: { labels: { ...r.spec.template?.metadata?.labels, [POD_TEMPLATE_HASH]: hash } },
    },
  },
});

const deployment = newDeployment('nginx', 1);
const oldDeployment: Deployment = {
  ...deployment,
  spec: {
    ...deployment.spec,
    template: { ...deployment.spec.template, spec: { containers: [{ name: 'nginx-old-1' }] } },
  },
};

describe('TestFindNewReplicaSet', () => {
  const newRS = withTemplateLabel(newReplicaSet(deployment, 'new', 1), 'hash', at(60));
  const newRSDup = withTemplateLabel(newReplicaSet(deployment, 'new-dup', 1), 'different-hash', at(0));
  const oldRS = newReplicaSet(oldDeployment, 'old', 1);
  it('given a ReplicaSet with the same template as the Deployment but another pod-template-hash, then it is the new one', () => {
    assert.equal(findNewReplicaSet(deployment, [newRS, oldRS]), newRS);
  });
  it('given two ReplicaSets with the same template, then the oldest is the new one', () => {
    assert.equal(findNewReplicaSet(deployment, [newRS, oldRS, newRSDup]), newRSDup);
  });
  it('given only an old template, then there is no new ReplicaSet', () => {
    assert.equal(findNewReplicaSet(deployment, [oldRS]), undefined);
  });
});

describe('TestFindOldReplicaSets', () => {
  const newRS = withTemplateLabel(newReplicaSet(deployment, 'new', 1), 'hash', at(60));
  const newRSDup = withTemplateLabel(newReplicaSet(deployment, 'new-dup', 0), 'different-hash', at(0));
  const oldRS = {
    ...newReplicaSet(oldDeployment, 'old', 0),
    metadata: { ...newReplicaSet(oldDeployment, 'old', 0).metadata, creationTimestamp: at(-60) },
  };
  const cases: [string, ReplicaSet[], ReplicaSet[], ReplicaSet[]][] = [
    ['Get old ReplicaSets', [newRS, oldRS], [oldRS], []],
    ['Get old ReplicaSets with no new ReplicaSet', [oldRS], [oldRS], []],
    [
      'Get old ReplicaSets with two new ReplicaSets, only the oldest new ReplicaSet is seen as new ReplicaSet',
      [oldRS, newRS, newRSDup],
      [oldRS, newRS],
      [newRS],
    ],
    ['Get empty old ReplicaSets', [newRS], [], []],
  ];
  for (const [name, list, all, required] of cases) {
    it(`given "${name}", then all old ones oldest first, and the required ones those with replicas`, () => {
      const got = findOldReplicaSets(deployment, list);
      assert.deepEqual(names(got.allOld), names(all));
      assert.deepEqual(names(got.requiredOld), names(required));
    });
  }
});

describe('TestGetReplicaCountForReplicaSets', () => {
  const set = (name: string, spec: number, status: ReplicaSet['status']): ReplicaSet =>
    rs(name, spec, undefined, status);
  const rs1 = set('foo-rs', 1, { replicas: 2, terminatingReplicas: 3, observedGeneration: 1 });
  const rs2 = set('bar-rs', 2, { replicas: 3, terminatingReplicas: 1 });
  const rs3 = set('unsynced-rs', 3, { replicas: 0 });
  const rs4 = set('dropped-rs', 1, { replicas: 1, observedGeneration: 1 });
  const cases: [string, ReplicaSet[], number, number, number | null][] = [
    ['scaling down rs1', [rs1], 1, 2, 3],
    ['scaling down rs1 and rs2', [rs1, rs2], 3, 5, 4],
    ['scaling up rs3', [rs3], 3, 0, 0],
    ['scaling down rs1 and rs2 and scaling up rs3', [rs1, rs2, rs3], 6, 5, 4],
    ['invalid/unknown terminating status for rs4', [rs4], 1, 1, null],
    ['invalid/unknown terminating status for rs4 with rs1, rs2 and rs3', [rs1, rs2, rs3, rs4], 7, 6, null],
  ];
  for (const [name, sets, count, actual, terminating] of cases) {
    it(`given ${name}, then spec ${count}, status ${actual}, terminating ${terminating}`, () => {
      assert.equal(replicaCount(sets), count);
      assert.equal(statusCount(sets, 'replicas'), actual);
      assert.equal(terminatingReplicaCount(sets), terminating);
    });
  }
});

describe('TestNewRSNewReplicas', () => {
  const cases: [string, boolean, number, number, number, number][] = [
    ['can not scale up - to newRSReplicas', false, 1, 5, 1, 5],
    ['scale up - to depReplicas', false, 6, 2, 10, 6],
    ['recreate - to depReplicas', true, 3, 1, 1, 3],
  ];
  for (const [name, recreate, depReplicas, newRSReplicas, surge, expected] of cases) {
    it(`given ${name}, then ${expected}`, () => {
      const d = newDeployment('nginx', depReplicas, { recreate, maxUnavailable: 1, maxSurge: surge });
      const newRC = newReplicaSet(d, 'new', newRSReplicas);
      const rs5 = newReplicaSet(d, 'five', 5);
      assert.deepEqual(newRSNewReplicas(d, [rs5], newRC), { value: expected });
    });
  }

  it('given a strategy upstream does not know, then the error', () => {
    const d = newDeployment('nginx', 1);
    const odd = { ...d, spec: { ...d.spec, strategy: { type: 'Blue' } } };
    assert.deepEqual(newRSNewReplicas(odd, [], newReplicaSet(d, 'new', 0)), {
      error: "deployment type Blue isn't supported",
    });
  });
});

describe('findActiveOrLatest, the sorts (controller_utils.go, deployment_util.go)', () => {
  const v1 = rs('foo-v1', 0, at(0));
  const v2 = rs('foo-v2', 0, at(60));
  const v3 = rs('foo-v3', 2, at(120));
  it('given one active ReplicaSet, then it; given none, then the new one or the newest old one; given two, then none', () => {
    assert.equal(findActiveOrLatest(v1, [v3, v2]), v3);
    assert.equal(findActiveOrLatest(v1, [v2]), v1);
    assert.equal(findActiveOrLatest(undefined, [v1, v2]), v2);
    assert.equal(findActiveOrLatest(rs('x', 1), [v3]), undefined);
    assert.equal(findActiveOrLatest(undefined, []), undefined);
  });

  it('given equal sizes, then BySizeNewer puts the newer first and BySizeOlder the older; the larger always first', () => {
    const [a, b, c] = [rs('a', 2, at(0)), rs('b', 2, at(60)), rs('c', 5, at(30))];
    assert.deepEqual(names(sorted([a, b, c], bySizeNewer)), ['c', 'b', 'a']);
    assert.deepEqual(names(sorted([a, b, c], bySizeOlder)), ['c', 'a', 'b']);
  });

  it('given revisions, then ByRevision sorts by them, an unparsable or equal one by creation time', () => {
    const revised = (r: ReplicaSet, rev: string): ReplicaSet => ({
      ...r,
      metadata: { ...r.metadata, annotations: { [REVISION]: rev } },
    });
    const [a, b, c] = [
      revised(rs('a', 0, at(0)), '3'),
      revised(rs('b', 0, at(60)), '1'),
      revised(rs('c', 0, at(30)), 'x'),
    ];
    assert.deepEqual(names(sorted([a, b], byRevision)), ['b', 'a']);
    assert.deepEqual(names(sorted([c, a], byRevision)), ['a', 'c']);
  });
});

describe('IsSaturated (TestAnnotationUtils)', () => {
  const d = newDeployment('nginx', 1);
  const sized = (desired: string, available: number): ReplicaSet => ({
    ...newReplicaSet(d, 'new', 1),
    metadata: { ...newReplicaSet(d, 'new', 1).metadata, annotations: { [DESIRED_REPLICAS]: desired } },
    status: { replicas: 1, availableReplicas: available },
  });
  it('given a ReplicaSet sized for the Deployment with all its replicas available, then saturated; otherwise not', () => {
    assert.equal(isSaturated(d, sized('1', 1)), true);
    assert.equal(isSaturated(d, sized('2', 1)), false);
    assert.equal(isSaturated(d, sized('1', 0)), false);
    assert.equal(isSaturated(d, sized('x', 1)), false);
    assert.equal(isSaturated(d, undefined), false);
  });
});
