import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ReplicaSet } from '@kcm-bus/k8s/apps-v1.ts';
import type { Pod } from '@kcm-bus/k8s/core-v1.ts';
import { listerOf } from '@kcm-bus/k8s/lister.fixture.ts';
import { LABELS, newDeployment, newReplicaSet, rs } from './deployment.fixture.ts';
import { computeHash } from './hash.ts';
import { POD_INDEXERS } from './lookup.ts';
import {
  getPodMapForDeployment,
  oldPodsRunning,
  rolloutRecreate,
  scaleDownOldReplicaSetsForRecreate,
} from './recreate.ts';
import { bodyOf, contextOf, writesOf } from './sync.fixture.ts';

/** podOf mirrors upstream's generatePodFromRS: a pod controlled by the ReplicaSet, with its selector's labels. */
function podOf(r: ReplicaSet, name = `${r.metadata.name}-pod`, phase?: string, owned = true): Pod {
  const ref = {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    name: r.metadata.name,
    uid: r.metadata.uid,
    controller: true,
  };
  return {
    metadata: {
      name,
      namespace: 'default',
      uid: `uid-${name}`,
      labels: LABELS,
      ...(owned ? { ownerReferences: [ref] } : {}),
    },
    ...(phase === undefined ? {} : { status: { phase } }),
  };
}
const d = newDeployment('foo', 3, { recreate: true });
const withStatus = (r: ReplicaSet, replicas: number): ReplicaSet => ({ ...r, status: { replicas } });

describe('TestScaleDownOldReplicaSets', () => {
  it('given an old ReplicaSet of 3, then it is scaled to 0, announced', () => {
    const old = newReplicaSet(d, 'foo-0', 3);
    const s = contextOf(d, [old]);
    assert.equal(scaleDownOldReplicaSetsForRecreate(s, [old]), true);
    const [update] = writesOf(s);
    assert.deepEqual(
      [update?.verb, bodyOf<ReplicaSet>(update).spec.replicas, update?.event?.message],
      ['Update', 0, 'Scaled down replica set foo-0 from 3 to 0'],
    );
  });
});

describe('TestOldPodsRunning', () => {
  const withUID = (uid: string): ReplicaSet => ({
    ...newReplicaSet(d, `foo-${uid}`, 0),
    metadata: { ...newReplicaSet(d, `foo-${uid}`, 0).metadata, uid },
  });
  const phases = (...ps: string[]): Pod[] => ps.map((p, i) => podOf(rs('x', 0), `p${i}`, p));
  const cases: [string, ReplicaSet[], Map<string, readonly Pod[]>, boolean][] = [
    ['no old RSs', [], new Map(), false],
    [
      'old RSs with running pods',
      [withUID('some-uid'), withUID('other-uid')],
      new Map([
        ['some-uid', [podOf(rs('x', 0)), podOf(rs('y', 0))]],
        ['other-uid', [podOf(rs('z', 0))]],
      ]),
      true,
    ],
    ['old RSs without pods but with non-zero status replicas', [withStatus(rs('rs-1', 0), 1)], new Map(), true],
    ['old RSs without pods or non-zero status replicas', [withStatus(rs('rs-1', 0), 0)], new Map(), false],
    [
      'old RSs with zero status replicas but pods in terminal state are present',
      [withStatus(rs('rs-1', 0), 0)],
      new Map([['uid-1', phases('Failed', 'Succeeded')]]),
      false,
    ],
    [
      'old RSs with zero status replicas but pod in unknown phase present',
      [withStatus(rs('rs-1', 0), 0)],
      new Map([['uid-1', phases('Unknown')]]),
      true,
    ],
    [
      'old RSs with zero status replicas with pending pod present',
      [withStatus(rs('rs-1', 0), 0)],
      new Map([['uid-1', phases('Pending')]]),
      true,
    ],
    [
      'old RSs with zero status replicas with running pod present',
      [withStatus(rs('rs-1', 0), 0)],
      new Map([['uid-1', phases('Running')]]),
      true,
    ],
    [
      'old RSs with zero status replicas but pods in terminal state and pending are present',
      [withStatus(rs('rs-1', 0), 0)],
      new Map([
        ['uid-1', phases('Failed', 'Succeeded')],
        ['uid-2', []],
        ['uid-3', phases('Pending')],
      ]),
      true,
    ],
  ];
  for (const [name, oldRSs, podMap, want] of cases)
    it(`given "${name}", then ${want}`, () => assert.equal(oldPodsRunning(undefined, oldRSs, podMap), want));

  it('given running pods of the new ReplicaSet only, then no old pods run', () => {
    const newRS = withUID('new-uid');
    assert.equal(oldPodsRunning(newRS, [], new Map([['new-uid', phases('Running')]])), false);
  });
});

describe('TestGetPodMapForReplicaSets', () => {
  it('given pods of two ReplicaSets, an orphan and a failed one, then each ReplicaSet maps to its controlled pods, failed included', () => {
    const [rs1, rs2] = [newReplicaSet(d, 'rs1', 1), newReplicaSet(d, 'rs2', 1)];
    const pods = [podOf(rs1), podOf(rs2), podOf(rs1, 'pod3', undefined, false), podOf(rs1, 'pod4', 'Failed')];
    const podMap = getPodMapForDeployment(listerOf(pods, POD_INDEXERS), [rs1, rs2]);
    assert.deepEqual(
      [...podMap].map(([uid, ps]) => [uid, ps.map((p) => p.metadata.name).sort()]),
      [
        ['uid-rs1', ['pod4', 'rs1-pod']],
        ['uid-rs2', ['rs2-pod']],
      ],
    );
  });
});

describe('rolloutRecreate', () => {
  const old = {
    ...newReplicaSet(d, 'foo-old', 3),
    spec: { ...newReplicaSet(d, 'foo-old', 3).spec, template: { metadata: { labels: LABELS } } },
  };
  it('given an old ReplicaSet with replicas, then only its scale-down and the status: no new ReplicaSet yet', () => {
    const s = contextOf(d, [withStatus(old, 3)]);
    rolloutRecreate(s);
    assert.deepEqual(
      writesOf(s).map((m) => [m.verb, m.target.name]),
      [
        ['Update', 'foo-old'],
        ['UpdateStatus', 'foo'],
      ],
    );
  });

  it('given the old ReplicaSet at 0 but one of its pods still running, then nothing is created', () => {
    const scaled = withStatus({ ...old, spec: { ...old.spec, replicas: 0 } }, 0);
    const s = contextOf(d, [scaled], [podOf(scaled, 'p', 'Running')]);
    rolloutRecreate(s);
    assert.deepEqual(
      writesOf(s).map((m) => m.verb),
      ['UpdateStatus'],
    );
  });

  it('given the old pods gone, then the new ReplicaSet is created at full size', () => {
    const scaled = withStatus({ ...old, spec: { ...old.spec, replicas: 0 } }, 0);
    const s = contextOf(d, [scaled], [podOf(scaled, 'p', 'Succeeded')]);
    rolloutRecreate(s);
    const [create] = writesOf(s);
    assert.deepEqual(
      [create?.verb, create?.target.name, bodyOf<ReplicaSet>(create).spec.replicas],
      ['Create', `foo-${computeHash(d.spec.template, undefined)}`, 3],
    );
  });
});
