import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Deployment, ReplicaSet } from '@kcm-bus/k8s/apps-v1.ts';
import { DESIRED_REPLICAS, REVISION, withAnnotations } from './annotations.ts';
import { PROGRESSING, REASONS } from './conditions.ts';
import { at, newDeployment, newReplicaSet, rs } from './deployment.fixture.ts';
import { MAX_INT32 } from './spec.ts';
import { checkPausedConditions, cleanupDeployment, isScalingEvent } from './sync.ts';
import { bodyOf, contextOf, writesOf } from './sync.fixture.ts';

const withStatus = (name: string, spec: number, status: number, created?: string, revision?: string): ReplicaSet => {
  const r = rs(name, spec, created, { replicas: status });
  return revision === undefined ? r : withAnnotations(r, { [REVISION]: revision });
};
const deleted = (s: ReturnType<typeof contextOf>): string[] =>
  writesOf(s)
    .filter((m) => m.verb === 'Delete')
    .map((m) => m.target.name);

describe('TestDeploymentController_cleanupDeployment', () => {
  const alreadyDeleted = {
    ...withStatus('foo-1', 0, 0),
    metadata: { ...withStatus('foo-1', 0, 0).metadata, deletionTimestamp: at(0) },
  };
  const cases: [ReplicaSet[], number, number][] = [
    [[withStatus('foo-1', 0, 0), withStatus('foo-2', 0, 0), withStatus('foo-3', 0, 0)], 1, 2],
    [
      [withStatus('foo-1', 0, 0), withStatus('foo-2', 0, 1), withStatus('foo-3', 1, 0), withStatus('foo-4', 1, 1)],
      0,
      1,
    ],
    [[withStatus('foo-1', 0, 0), withStatus('foo-2', 0, 0)], 0, 2],
    [[withStatus('foo-1', 1, 1), withStatus('foo-2', 1, 1)], 0, 0],
    [[alreadyDeleted], 0, 0],
    [[withStatus('foo-1', 0, 0), withStatus('foo-2', 0, 0), withStatus('foo-3', 0, 0)], MAX_INT32, 0],
  ];
  for (const [i, [oldRSs, limit, expected]] of cases.entries()) {
    it(`scenario ${i}: given ${oldRSs.length} old ReplicaSets and revisionHistoryLimit ${limit}, then ${expected} deleted, each with its UID as precondition`, () => {
      const s = contextOf(newDeployment('foo', 1, { revisionHistoryLimit: limit }), oldRSs);
      cleanupDeployment(s, oldRSs);
      const deletes = writesOf(s).filter((m) => m.verb === 'Delete');
      assert.equal(deletes.length, expected);
      for (const m of deletes)
        assert.deepEqual(m.preconditions, { uid: `uid-${m.target.name}`, resourceVersion: null });
    });
  }

  it('given an old ReplicaSet whose status has not observed its spec, then it is kept', () => {
    const unobserved = {
      ...withStatus('foo-1', 0, 0),
      metadata: { ...withStatus('foo-1', 0, 0).metadata, generation: 2 },
    };
    const s = contextOf(newDeployment('foo', 1, { revisionHistoryLimit: 0 }), [unobserved]);
    cleanupDeployment(s, [unobserved]);
    assert.deepEqual(deleted(s), []);
  });
});

describe('TestDeploymentController_cleanupDeploymentOrder', () => {
  const cases: [string, ReplicaSet[], number, string[]][] = [
    [
      'revision order: rs1 < rs2, delete rs1',
      [withStatus('foo-1', 0, 0, at(-60), '1'), withStatus('foo-2', 0, 0, at(0), '2')],
      1,
      ['foo-1'],
    ],
    [
      'revision order: rs2 < rs1, delete rs2',
      [withStatus('foo-1', 0, 0, at(-60), '2'), withStatus('foo-2', 0, 0, at(0), '1')],
      1,
      ['foo-2'],
    ],
    [
      "rs1 has revision but rs2 doesn't have revision, delete rs2",
      [withStatus('foo-1', 0, 0, at(-60), '1'), withStatus('foo-2', 0, 0, at(0))],
      1,
      ['foo-2'],
    ],
    [
      "rs1 doesn't have revision while rs2 has revision, delete rs1",
      [withStatus('foo-1', 0, 0, at(-60)), withStatus('foo-2', 0, 0, at(0), '2')],
      1,
      ['foo-1'],
    ],
    [
      'revision order: rs1 < rs2 < r3, but rs1 has replicas, delete rs2',
      [
        withStatus('foo-1', 1, 1, at(-60), '1'),
        withStatus('foo-2', 0, 0, at(0), '2'),
        withStatus('foo-3', 0, 0, at(60), '3'),
      ],
      1,
      ['foo-2'],
    ],
    [
      "revision order: rs1 < rs2 < r3, both rs1 && rs2 have replicas, don't delete",
      [
        withStatus('foo-1', 1, 1, at(-60), '1'),
        withStatus('foo-2', 1, 1, at(0), '2'),
        withStatus('foo-3', 0, 0, at(60), '3'),
      ],
      1,
      [],
    ],
    [
      'revision order: rs2 < rs4 < rs1 < rs3, delete rs2 && rs4',
      [
        withStatus('foo-1', 0, 0, at(-60), '3'),
        withStatus('foo-2', 0, 0, at(0), '1'),
        withStatus('foo-3', 0, 0, at(60), '4'),
        withStatus('foo-4', 0, 0, at(120), '2'),
      ],
      2,
      ['foo-2', 'foo-4'],
    ],
  ];
  for (const [name, oldRSs, limit, expected] of cases) {
    it(`given "${name}", then ${JSON.stringify(expected)} deleted`, () => {
      const s = contextOf(newDeployment('foo', 1, { revisionHistoryLimit: limit }), oldRSs);
      cleanupDeployment(s, oldRSs);
      assert.deepEqual(deleted(s), expected);
    });
  }
});

describe('checkPausedConditions (sync.go)', () => {
  const progressing = (reason: string): Deployment['status'] => ({
    conditions: [{ type: PROGRESSING, status: 'True', reason }],
  });
  const cases: [string, Deployment, string | undefined][] = [
    [
      'paused with a deadline',
      newDeployment('foo', 1, { paused: true, progressDeadlineSeconds: 60 }),
      REASONS.PausedDeployReason,
    ],
    [
      'resumed, its paused condition still there',
      newDeployment('foo', 1, {
        progressDeadlineSeconds: 60,
        status: { conditions: [{ type: PROGRESSING, status: 'Unknown', reason: REASONS.PausedDeployReason }] },
      }),
      REASONS.ResumedDeployReason,
    ],
    [
      'paused and already said so',
      newDeployment('foo', 1, {
        paused: true,
        progressDeadlineSeconds: 60,
        status: { conditions: [{ type: PROGRESSING, status: 'Unknown', reason: REASONS.PausedDeployReason }] },
      }),
      undefined,
    ],
    [
      'paused after it timed out',
      newDeployment('foo', 1, {
        paused: true,
        progressDeadlineSeconds: 60,
        status: progressing(REASONS.TimedOutReason),
      }),
      undefined,
    ],
    ['paused without a deadline', newDeployment('foo', 1, { paused: true }), undefined],
  ];
  for (const [name, d, reason] of cases) {
    it(`given ${name}, then ${reason === undefined ? 'no write' : `Progressing=Unknown ${reason}, written`}`, () => {
      const s = contextOf(d, []);
      checkPausedConditions(s);
      const writes = writesOf(s);
      if (reason === undefined) return assert.deepEqual(writes, []);
      assert.deepEqual(
        writes.map((m) => m.verb),
        ['UpdateStatus'],
      );
      const cond = bodyOf<Deployment>(writes[0]).status?.conditions?.find((c) => c.type === PROGRESSING);
      assert.deepEqual([cond?.status, cond?.reason], ['Unknown', reason]);
    });
  }
});

describe('isScalingEvent (sync.go)', () => {
  const d = newDeployment('foo', 5);
  const sized = (r: ReplicaSet, desired: string): ReplicaSet =>
    withAnnotations(r, { [REVISION]: '1', [DESIRED_REPLICAS]: desired });
  it('given an active ReplicaSet sized for other replicas, then a scaling event; for these, or an inactive one, then not', () => {
    assert.equal(isScalingEvent(contextOf(d, [sized(newReplicaSet(d, 'a', 3), '3')])), true);
    assert.equal(isScalingEvent(contextOf(d, [sized(newReplicaSet(d, 'a', 5), '5')])), false);
    assert.equal(isScalingEvent(contextOf(d, [sized(newReplicaSet(d, 'a', 0), '3')])), false);
    assert.equal(isScalingEvent(contextOf(d, [sized(newReplicaSet(d, 'a', 5), 'x')])), false);
  });
});
