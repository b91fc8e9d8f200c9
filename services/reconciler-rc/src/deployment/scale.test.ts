import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Deployment, IntOrString, ReplicaSet } from '@kcm-bus/k8s/apps-v1.ts';
import { DESIRED_REPLICAS, MAX_REPLICAS, setReplicasAnnotations } from './annotations.ts';
import { newDeployment, rs } from './deployment.fixture.ts';
import { maxSurge } from './fenceposts.ts';
import { scale, scaleReplicaSet } from './scale.ts';
import { bodyOf, contextOf, writesOf } from './sync.fixture.ts';

const NEW = '2016-05-20T02:00:00Z';
const OLD = '2016-05-20T01:00:00Z';
const OLDER = '2016-05-20T00:00:00Z';

type Case = {
  readonly name: string;
  readonly deployment: Deployment;
  readonly oldDeployment: Deployment;
  readonly newRS?: ReplicaSet;
  readonly oldRSs: readonly ReplicaSet[];
  readonly expectedNew?: number;
  readonly expectedOld: readonly number[];
  readonly wasntUpdated?: readonly string[];
  readonly desiredReplicasAnnotations?: Readonly<Record<string, number>>;
};

const d = (replicas: number, surge?: IntOrString): Deployment =>
  newDeployment('foo', replicas, { ...(surge === undefined ? {} : { maxSurge: surge }) });
const updatedTemplate = (replicas: number): Deployment => {
  const base = d(replicas);
  return { ...base, spec: { ...base.spec, template: { metadata: { labels: { foo: 'bar', another: 'label' } } } } };
};
const unavailableNew = { ...rs('foo-v2', 2, NEW), status: { replicas: 2, availableReplicas: 0 } };

const CASES: Case[] = [
  {
    name: 'normal scaling event: 10 -> 12',
    deployment: d(12),
    oldDeployment: d(10),
    newRS: rs('foo-v1', 10, NEW),
    oldRSs: [],
    expectedNew: 12,
    expectedOld: [],
  },
  {
    name: 'normal scaling event: 10 -> 5',
    deployment: d(5),
    oldDeployment: d(10),
    newRS: rs('foo-v1', 10, NEW),
    oldRSs: [],
    expectedNew: 5,
    expectedOld: [],
  },
  {
    name: 'proportional scaling: 5 -> 10',
    deployment: d(10),
    oldDeployment: d(5),
    newRS: rs('foo-v2', 2, NEW),
    oldRSs: [rs('foo-v1', 3, OLD)],
    expectedNew: 4,
    expectedOld: [6],
  },
  {
    name: 'proportional scaling: 5 -> 3',
    deployment: d(3),
    oldDeployment: d(5),
    newRS: rs('foo-v2', 2, NEW),
    oldRSs: [rs('foo-v1', 3, OLD)],
    expectedNew: 1,
    expectedOld: [2],
  },
  {
    name: 'proportional scaling: 9 -> 4',
    deployment: d(4),
    oldDeployment: d(9),
    newRS: rs('foo-v2', 8, NEW),
    oldRSs: [rs('foo-v1', 1, OLD)],
    expectedNew: 4,
    expectedOld: [0],
  },
  {
    name: 'proportional scaling: 7 -> 10',
    deployment: d(10),
    oldDeployment: d(7),
    newRS: rs('foo-v3', 2, NEW),
    oldRSs: [rs('foo-v2', 3, OLD), rs('foo-v1', 2, OLDER)],
    expectedNew: 3,
    expectedOld: [4, 3],
  },
  {
    name: 'proportional scaling: 13 -> 8',
    deployment: d(8),
    oldDeployment: d(13),
    newRS: rs('foo-v3', 2, NEW),
    oldRSs: [rs('foo-v2', 8, OLD), rs('foo-v1', 3, OLDER)],
    expectedNew: 1,
    expectedOld: [5, 2],
  },
  {
    name: 'leftover distribution: 3 -> 4',
    deployment: d(4),
    oldDeployment: d(3),
    newRS: rs('foo-v3', 1, NEW),
    oldRSs: [rs('foo-v2', 1, OLD), rs('foo-v1', 1, OLDER)],
    expectedNew: 2,
    expectedOld: [1, 1],
  },
  {
    name: 'leftover distribution: 3 -> 2',
    deployment: d(2),
    oldDeployment: d(3),
    newRS: rs('foo-v3', 1, NEW),
    oldRSs: [rs('foo-v2', 1, OLD), rs('foo-v1', 1, OLDER)],
    expectedNew: 1,
    expectedOld: [1, 0],
  },
  {
    name: 'proportional scaling (no new rs): 4 -> 5',
    deployment: d(5),
    oldDeployment: d(4),
    oldRSs: [rs('foo-v2', 2, OLD), rs('foo-v1', 2, OLDER)],
    expectedOld: [3, 2],
  },
  {
    name: 'proportional scaling: 6 -> 0',
    deployment: d(0),
    oldDeployment: d(6),
    newRS: rs('foo-v3', 3, NEW),
    oldRSs: [rs('foo-v2', 2, OLD), rs('foo-v1', 1, OLDER)],
    expectedNew: 0,
    expectedOld: [0, 0],
  },
  {
    name: 'proportional scaling: 0 -> 6',
    deployment: d(6),
    oldDeployment: d(6),
    newRS: rs('foo-v3', 0, NEW),
    oldRSs: [rs('foo-v2', 0, OLD), rs('foo-v1', 0, OLDER)],
    expectedNew: 6,
    expectedOld: [0, 0],
    wasntUpdated: ['foo-v2', 'foo-v1'],
  },
  {
    name: 'failed rs update',
    deployment: d(5),
    oldDeployment: d(5),
    newRS: rs('foo-v3', 2, NEW),
    oldRSs: [rs('foo-v2', 1, OLD), rs('foo-v1', 1, OLDER)],
    expectedNew: 2,
    expectedOld: [2, 1],
    wasntUpdated: ['foo-v3', 'foo-v1'],
    desiredReplicasAnnotations: { 'foo-v2': 3 },
  },
  {
    name: 'deployment with surge pods',
    deployment: d(20, 2),
    oldDeployment: d(10, 2),
    newRS: rs('foo-v2', 6, NEW),
    oldRSs: [rs('foo-v1', 6, OLD)],
    expectedNew: 11,
    expectedOld: [11],
  },
  {
    name: 'change both surge and size',
    deployment: d(50, 6),
    oldDeployment: d(10, 3),
    newRS: rs('foo-v2', 5, NEW),
    oldRSs: [rs('foo-v1', 8, OLD)],
    expectedNew: 22,
    expectedOld: [34],
  },
  {
    name: 'change both size and template',
    deployment: updatedTemplate(14),
    oldDeployment: d(10),
    oldRSs: [rs('foo-v2', 7, NEW), rs('foo-v1', 3, OLD)],
    expectedOld: [10, 4],
  },
  {
    name: 'saturated but broken new replica set does not affect old pods',
    deployment: d(2, 1),
    oldDeployment: d(2, 1),
    newRS: unavailableNew,
    oldRSs: [rs('foo-v1', 1, OLD)],
    expectedNew: 2,
    expectedOld: [1],
  },
];

/** sized gives a ReplicaSet the replicas annotations the old Deployment would have written (upstream's test setup). */
function sized(r: ReplicaSet, tc: Case): ReplicaSet {
  const desired = tc.desiredReplicasAnnotations?.[r.metadata.name] ?? tc.oldDeployment.spec.replicas!;
  return setReplicasAnnotations(r, desired, desired + maxSurge(tc.oldDeployment)).object;
}

describe('TestScale', () => {
  for (const tc of CASES) {
    it(`given "${tc.name}", then each ReplicaSet is updated to its proportion`, () => {
      const newRS = tc.newRS === undefined ? undefined : sized(tc.newRS, tc);
      const oldRSs = tc.oldRSs.map((r) => sized(r, tc));
      const s = contextOf(tc.deployment, newRS === undefined ? oldRSs : [newRS, ...oldRSs]);
      scale(s, newRS, oldRSs);
      const sizes = new Map([...oldRSs, ...(newRS ? [newRS] : [])].map((r) => [r.metadata.name, r.spec.replicas]));
      for (const m of writesOf(s).filter((w) => w.verb === 'Update')) {
        assert.equal(m.target.resource, 'replicasets');
        if (!tc.wasntUpdated?.includes(m.target.name)) sizes.set(m.target.name, bodyOf<ReplicaSet>(m).spec.replicas);
      }
      if (tc.expectedNew !== undefined) assert.equal(sizes.get(newRS!.metadata.name), tc.expectedNew);
      assert.deepEqual(
        oldRSs.map((r) => sizes.get(r.metadata.name)),
        tc.expectedOld,
      );
    });
  }

  it('given a proportional 5 -> 10, then every update carries the new replicas annotations, and each scaled ReplicaSet is announced once written', () => {
    const tc = CASES[2]!;
    const [newRS, old] = [sized(tc.newRS!, tc), sized(tc.oldRSs[0]!, tc)];
    const s = contextOf(tc.deployment, [newRS, old]);
    scale(s, newRS, [old]);
    const writes = writesOf(s);
    assert.deepEqual(
      writes.map((m) => [m.verb, m.target.name, m.event?.message]),
      [
        ['Update', 'foo-v1', 'Scaled up replica set foo-v1 from 3 to 6'],
        ['Update', 'foo-v2', 'Scaled up replica set foo-v2 from 2 to 4'],
      ],
    );
    for (const m of writes)
      assert.deepEqual(
        [
          bodyOf<ReplicaSet>(m).metadata.annotations?.[DESIRED_REPLICAS],
          bodyOf<ReplicaSet>(m).metadata.annotations?.[MAX_REPLICAS],
        ],
        ['10', '10'],
      );
    assert.deepEqual(
      [writes[0]!.preconditions, writes[0]!.event?.reason],
      [{ uid: 'uid-foo-v1', resourceVersion: '5' }, 'ScalingReplicaSet'],
    );
  });
});

describe('scaleReplicaSet (sync.go)', () => {
  const deployment = newDeployment('foo', 3);
  const r = setReplicasAnnotations(rs('foo-1', 3), 3, 3).object;
  it('given the size it has and no force, then nothing; forced with stale annotations, then an update without an event', () => {
    const lazy = contextOf(deployment, [r]);
    assert.deepEqual(scaleReplicaSet(lazy, r, 3, false).scaled, false);
    assert.equal(writesOf(lazy).length, 0);
    const stale = setReplicasAnnotations(r, 2, 2).object;
    const forced = contextOf(deployment, [stale]);
    assert.equal(scaleReplicaSet(forced, stale, 3, true).scaled, false);
    const [update] = writesOf(forced);
    assert.deepEqual(
      [update?.verb, update?.event, bodyOf<ReplicaSet>(update).metadata.annotations?.[DESIRED_REPLICAS]],
      ['Update', null, '3'],
    );
  });

  it('given two scales of one ReplicaSet in a sync, then one update with the final size, the second event recorded after it', () => {
    const s = contextOf(deployment, [r]);
    scaleReplicaSet(s, r, 2, false);
    scaleReplicaSet(s, r, 1, false);
    const writes = writesOf(s);
    assert.deepEqual(
      writes.map((m) => [m.verb, m.event?.message]),
      [
        ['Update', 'Scaled down replica set foo-1 from 3 to 2'],
        ['RecordEvent', 'Scaled down replica set foo-1 from 2 to 1'],
      ],
    );
    assert.equal(bodyOf<ReplicaSet>(writes[0]).spec.replicas, 1);
  });
});
