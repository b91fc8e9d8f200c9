import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Deployment, ReplicaSet } from '@kcm-bus/k8s/apps-v1.ts';
import { DEPRECATED_ROLLBACK_TO, REVISION, withAnnotations } from './annotations.ts';
import { LABELS, newDeployment, newReplicaSet } from './deployment.fixture.ts';
import { POD_TEMPLATE_HASH } from './hash.ts';
import {
  getRollbackTo,
  rollback,
  ROLLBACK_DONE,
  ROLLBACK_REVISION_NOT_FOUND,
  ROLLBACK_TEMPLATE_UNCHANGED,
} from './rollback.ts';
import { bodyOf, contextOf, writesOf } from './sync.fixture.ts';

const d = withAnnotations(newDeployment('foo', 1), {
  [REVISION]: '2',
  [DEPRECATED_ROLLBACK_TO]: '0',
  'change-cause': 'edit',
});
const oldTemplate = {
  metadata: { labels: { ...LABELS, [POD_TEMPLATE_HASH]: 'hash' } },
  spec: { terminationGracePeriodSeconds: 1 } as object,
};
const rs1: ReplicaSet = withAnnotations(
  {
    ...newReplicaSet(d, 'deploymentrs-old', 0),
    spec: { ...newReplicaSet(d, 'deploymentrs-old', 0).spec, template: oldTemplate },
  },
  { [REVISION]: '1', 'change-cause': 'create' },
);
const rs2 = withAnnotations(newReplicaSet(d, 'deploymentrs-new', 1), { [REVISION]: '2', 'change-cause': 'edit' });

describe('TestReentrantRollback and rollbackToTemplate', () => {
  it("given a rollback to 0 (the last revision), then only the Deployment is updated: revision 1's template without the hash label, its annotations, no rollback annotation; announced once done", () => {
    const s = contextOf(d, [rs1, rs2]);
    rollback(s, 0n);
    const writes = writesOf(s);
    assert.deepEqual(
      writes.map((m) => [m.verb, m.target.resource]),
      [['Update', 'deployments']],
    );
    const body = bodyOf<Deployment>(writes[0]);
    assert.deepEqual(body.spec.template, { metadata: { labels: LABELS }, spec: { terminationGracePeriodSeconds: 1 } });
    assert.deepEqual(body.metadata.annotations, { [REVISION]: '2', 'change-cause': 'create' });
    assert.deepEqual(
      [writes[0]!.event?.reason, writes[0]!.event?.message],
      [ROLLBACK_DONE, 'Rolled back deployment "foo" to revision 1'],
    );
    assert.deepEqual(writes[0]!.preconditions, { uid: 'uid-foo', resourceVersion: '10' });
  });

  it('given a rollback to the revision of the current template, then a warning and the annotation cleared', () => {
    const s = contextOf(withAnnotations(d, { ...d.metadata.annotations, [DEPRECATED_ROLLBACK_TO]: '2' }), [rs1, rs2]);
    rollback(s, 2n);
    const writes = writesOf(s);
    assert.deepEqual(
      writes.map((m) => [m.verb, m.event?.reason ?? null]),
      [
        ['RecordEvent', ROLLBACK_TEMPLATE_UNCHANGED],
        ['Update', null],
      ],
    );
    assert.equal(
      writes[0]!.event?.message,
      'The rollback revision contains the same template as current deployment "foo"',
    );
    assert.deepEqual(bodyOf<Deployment>(writes[1]).metadata.annotations, { [REVISION]: '2', 'change-cause': 'edit' });
  });

  it('given a revision no ReplicaSet has, or no last revision, then a warning and the annotation cleared', () => {
    for (const [to, message, rsList] of [
      [7n, 'Unable to find the revision to rollback to.', [rs1, rs2]],
      [0n, 'Unable to find last revision.', [rs2]],
    ] as const) {
      const s = contextOf(d, [...rsList]);
      rollback(s, to);
      const writes = writesOf(s);
      assert.deepEqual(
        writes.map((m) => [m.verb, m.event?.reason ?? null, m.event?.message ?? null]),
        [
          ['RecordEvent', ROLLBACK_REVISION_NOT_FOUND, message],
          ['Update', null, null],
        ],
      );
    }
  });

  it("given the sync also writes the Deployment's status (it created the new ReplicaSet), then the Update waits for the next sync (it would meet 409)", () => {
    const s = contextOf(withAnnotations(newDeployment('foo', 1), { [DEPRECATED_ROLLBACK_TO]: '0' }), []);
    rollback(s, 0n);
    assert.deepEqual(
      writesOf(s).map((m) => m.verb),
      ['Create', 'UpdateStatus', 'RecordEvent'],
    );
  });
});

describe('getRollbackTo', () => {
  it('given the annotation as an integer, then it; absent, empty or not an integer, then none', () => {
    const at = (v: string | undefined): bigint | undefined =>
      getRollbackTo(withAnnotations(d, v === undefined ? {} : { [DEPRECATED_ROLLBACK_TO]: v }));
    assert.deepEqual([at('3'), at('0'), at(undefined), at(''), at('x')], [3n, 0n, undefined, undefined, undefined]);
  });

  it('given a revision past 2^53, then it exactly; past int64, then none (strconv.ParseInt refuses it)', () => {
    const at = (v: string): bigint | undefined => getRollbackTo(withAnnotations(d, { [DEPRECATED_ROLLBACK_TO]: v }));
    assert.deepEqual([at('3546343826724305832'), at('9223372036854775808')], [3546343826724305832n, undefined]);
  });
});
