import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ReplicaSet } from '@kcm-bus/k8s/apps-v1.ts';
import {
  copyDeploymentAnnotationsToReplicaSet,
  DEPRECATED_ROLLBACK_TO,
  DESIRED_REPLICAS,
  lastRevision,
  MAX_REPLICAS,
  maxRevision,
  nonNegativeInt32Annotation,
  replicasAnnotationsNeedUpdate,
  REVISION,
  setDeploymentAnnotationsTo,
  setDeploymentRevision,
  setReplicasAnnotations,
  withAnnotations,
} from './annotations.ts';
import { newDeployment, newReplicaSet } from './deployment.fixture.ts';

const d = newDeployment('nginx', 1);
const annotated = (annotations: Record<string, string> | undefined): ReplicaSet => {
  const r = newReplicaSet(d, 'hello', 1);
  return annotations === undefined ? r : withAnnotations(r, annotations);
};

describe('TestGetNonNegativeInt32FromAnnotation', () => {
  const cases: [string, Record<string, string> | undefined, number | undefined, string | undefined][] = [
    ['invalid empty', undefined, undefined, undefined],
    ['invalid', { test: 'invalid', foo: '2' }, undefined, 'invalid syntax'],
    ['invalid negative ', { test: '-1', foo: '2' }, undefined, 'invalid syntax'],
    ['valid zero', { test: '0', foo: '2' }, 0, undefined],
    ['valid', { test: '13', foo: '2' }, 13, undefined],
    ['valid max', { test: '2147483647', foo: '2' }, 2147483647, undefined],
    ['invalid max out of range', { test: '2147483648', foo: '2' }, undefined, 'out of range'],
    ['invalid max out of range 2', { test: '4294967296', foo: '2' }, undefined, 'out of range'],
  ];
  for (const [name, annotations, value, error] of cases) {
    it(`given "${name}", then ${value ?? error ?? 'absent'}`, () => {
      const got = nonNegativeInt32Annotation(annotated(annotations), 'test');
      if (value !== undefined) assert.deepEqual(got, { value });
      else if (error !== undefined)
        assert.match(got !== undefined && 'error' in got ? got.error : '', new RegExp(error));
      else assert.equal(got, undefined);
    });
  }
});

describe('TestReplicasAnnotationsNeedUpdate', () => {
  const cases: [string, Record<string, string> | undefined, boolean][] = [
    ['test Annotations nil', undefined, true],
    ['test desiredReplicas update', { [DESIRED_REPLICAS]: '8', [MAX_REPLICAS]: '20' }, true],
    ['test maxReplicas update', { [DESIRED_REPLICAS]: '10', [MAX_REPLICAS]: '16' }, true],
    ["test needn't update", { [DESIRED_REPLICAS]: '10', [MAX_REPLICAS]: '20' }, false],
  ];
  for (const [name, annotations, want] of cases)
    it(`given "${name}", then ${want}`, () =>
      assert.equal(replicasAnnotationsNeedUpdate(annotated(annotations), 10, 20), want));
});

describe('SetReplicasAnnotations (TestAnnotationUtils)', () => {
  it('given a ReplicaSet, then desired-replicas and max-replicas are set, and setting them again changes nothing', () => {
    const first = setReplicasAnnotations(annotated({ keep: 'me' }), 10, 11);
    assert.equal(first.changed, true);
    assert.deepEqual(first.object.metadata.annotations, { keep: 'me', [DESIRED_REPLICAS]: '10', [MAX_REPLICAS]: '11' });
    assert.equal(setReplicasAnnotations(first.object, 10, 11).changed, false);
  });
});

describe('MaxRevision, LastRevision', () => {
  const revised = (...revs: string[]): ReplicaSet[] => revs.map((r) => annotated({ [REVISION]: r }));
  it('given revisions 3, 1, 2 and an unparsable one, then the max is 3 and the last (second max) 2', () => {
    const list = [...revised('3', '1', '2', 'x'), annotated(undefined)];
    assert.equal(maxRevision(list), 3n);
    assert.equal(lastRevision(list), 2n);
  });
  it("given upstream e2e's adopted revision 3546343826724305832 (past 2^53), then the next is exactly ...833", () => {
    const list = revised('3546343826724305832', '1');
    assert.equal(String(maxRevision(list) + 1n), '3546343826724305833');
    assert.equal(lastRevision(list), 1n);
  });
  it('given a revision past int64, then it is unparsable and skipped, as strconv.ParseInt refuses it', () => {
    assert.equal(maxRevision(revised('9223372036854775808', '2')), 2n);
    assert.equal(maxRevision(revised('9223372036854775807')), 9223372036854775807n);
  });
  it('given none, then both are 0; given one, then the last is 0', () => {
    assert.equal(maxRevision([]), 0n);
    assert.equal(lastRevision(revised('4')), 0n);
  });
});

describe('copyDeploymentAnnotationsToReplicaSet, SetDeploymentAnnotationsTo, SetDeploymentRevision', () => {
  const skipped = {
    [REVISION]: '4',
    [DEPRECATED_ROLLBACK_TO]: '2',
    'kubectl.kubernetes.io/last-applied-configuration': '{}',
  };
  const deployment = withAnnotations(d, { ...skipped, owner: 'team-a', 'change-cause': 'edit' });
  it('given a Deployment with skipped and other annotations, then a ReplicaSet takes the others only', () => {
    const copied = copyDeploymentAnnotationsToReplicaSet(deployment, annotated({ [REVISION]: '1', owner: 'team-b' }));
    assert.equal(copied.changed, true);
    assert.deepEqual(copied.object.metadata.annotations, { [REVISION]: '1', owner: 'team-a', 'change-cause': 'edit' });
    assert.equal(copyDeploymentAnnotationsToReplicaSet(deployment, copied.object).changed, false);
  });
  it('given a rollback to a ReplicaSet, then the Deployment keeps its skipped annotations and takes the others from it', () => {
    const rolled = setDeploymentAnnotationsTo(deployment, annotated({ [REVISION]: '1', 'change-cause': 'create' }));
    assert.deepEqual(rolled.metadata.annotations, { ...skipped, 'change-cause': 'create' });
  });
  it('given the revision the Deployment has, then nothing changes; another, then it is set', () => {
    assert.equal(setDeploymentRevision(deployment, '4').changed, false);
    assert.equal(setDeploymentRevision(deployment, '5').object.metadata.annotations?.[REVISION], '5');
  });
});
