import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Deployment, ReplicaSet } from '@kcm-bus/k8s/apps-v1.ts';
import { DESIRED_REPLICAS, MAX_REPLICAS, REVISION, withAnnotations } from './annotations.ts';
import { PROGRESSING, REASONS } from './conditions.ts';
import { FOO_CONTROLLER_REF, LABELS, newDeployment, newReplicaSet } from './deployment.fixture.ts';
import { computeHash, POD_TEMPLATE_HASH } from './hash.ts';
import { getAllReplicaSetsAndSyncRevision } from './new-replica-set.ts';
import { SyncError } from './sync-context.ts';
import { bodyOf, contextOf, writesOf } from './sync.fixture.ts';

const d = newDeployment('foo', 3, { maxSurge: 1, maxUnavailable: 1, progressDeadlineSeconds: 600 });
const HASH = computeHash(d.spec.template, undefined);
const revised = (r: ReplicaSet, rev: string): ReplicaSet => withAnnotations(r, { [REVISION]: rev });
const oldTemplate = (r: ReplicaSet): ReplicaSet => ({
  ...r,
  spec: { ...r.spec, template: { metadata: { labels: LABELS } } },
});

describe('getNewReplicaSet: creating the new ReplicaSet', () => {
  it('given no ReplicaSet of its template, when asked to create, then <name>-<hash> with the hash label, owned, sized, annotated; the Deployment takes revision and condition', () => {
    const old = revised(oldTemplate(newReplicaSet(d, 'foo-old', 3)), '4');
    const s = contextOf(d, [old]);
    const { newRS } = getAllReplicaSetsAndSyncRevision(s, true);
    const [create, status, ...rest] = writesOf(s);
    assert.equal(rest.length, 0);
    assert.deepEqual(
      [create?.verb, create?.target.name, newRS.metadata.name],
      ['Create', `foo-${HASH}`, `foo-${HASH}`],
    );
    assert.deepEqual(bodyOf(create), {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: {
        name: `foo-${HASH}`,
        namespace: 'default',
        ownerReferences: [FOO_CONTROLLER_REF],
        labels: { ...LABELS, [POD_TEMPLATE_HASH]: HASH },
        annotations: { [REVISION]: '5', [DESIRED_REPLICAS]: '3', [MAX_REPLICAS]: '4' },
      },
      spec: {
        replicas: 1,
        minReadySeconds: 0,
        selector: { matchLabels: { ...LABELS, [POD_TEMPLATE_HASH]: HASH } },
        template: { ...d.spec.template, metadata: { labels: { ...LABELS, [POD_TEMPLATE_HASH]: HASH } } },
      },
    });
    assert.deepEqual(
      [create?.event?.type, create?.event?.reason, create?.event?.message],
      ['Normal', 'ScalingReplicaSet', `Scaled up replica set foo-${HASH} from 0 to 1`],
    );
    const written = bodyOf<Deployment>(status);
    assert.equal(status?.verb, 'UpdateStatus');
    assert.equal(written.metadata.annotations?.[REVISION], '5');
    assert.deepEqual(written.status?.conditions, [
      {
        type: PROGRESSING,
        status: 'True',
        lastUpdateTime: '2026-03-01T12:00:00Z',
        lastTransitionTime: '2026-03-01T12:00:00Z',
        reason: REASONS.NewReplicaSetReason,
        message: `Created new replica set "foo-${HASH}"`,
      },
    ]);
  });

  it('given a new ReplicaSet of 0 replicas (no room to surge), then it is created without an event', () => {
    const s = contextOf(d, [oldTemplate(newReplicaSet(d, 'foo-old', 4))]);
    getAllReplicaSetsAndSyncRevision(s, true);
    const [create] = writesOf(s);
    assert.deepEqual([bodyOf<ReplicaSet>(create).spec.replicas, create?.event], [0, null]);
  });

  it('given not asked to create, then no new ReplicaSet and no write', () => {
    const s = contextOf(d, []);
    assert.equal(getAllReplicaSetsAndSyncRevision(s, false).newRS, undefined);
    assert.equal(writesOf(s).length, 0);
  });

  it('TestDeploymentController_generateReplicaSetName: given a 250-character name, then it is cut to fit 253 with the hash', () => {
    const long = newDeployment('a'.repeat(250), 1);
    const s = contextOf(long, []);
    const { newRS } = getAllReplicaSetsAndSyncRevision(s, true);
    const hash = computeHash(long.spec.template, undefined);
    assert.equal(newRS.metadata.name, `${'a'.repeat(252 - hash.length)}-${hash}`);
    assert.equal(newRS.metadata.name.length, 253);
  });
});

describe('getNewReplicaSet: a ReplicaSet of that name already exists (upstream: the Create met AlreadyExists)', () => {
  it('given ours with an equal template in the store but not claimed, then it is the new one and nothing is created', () => {
    const found = newReplicaSet(d, `foo-${HASH}`, 2);
    const s = { ...contextOf(d, [found]), view: contextOf(d, []).view };
    const { newRS } = getAllReplicaSetsAndSyncRevision(s, true);
    assert.equal(newRS, found);
    const writes = writesOf(s);
    assert.deepEqual(
      writes.map((m) => m.verb),
      ['UpdateStatus'],
    );
    assert.equal(
      bodyOf<Deployment>(writes[0]).status?.conditions,
      undefined,
      'no NewReplicaSetCreated: it was not created',
    );
  });

  it("given another's ReplicaSet of the name, then the hash collided: collisionCount goes up and the sync ends with AlreadyExists", () => {
    const theirs = {
      ...newReplicaSet(d, `foo-${HASH}`, 2),
      metadata: { ...newReplicaSet(d, `foo-${HASH}`, 2).metadata, ownerReferences: [] },
    };
    const s = { ...contextOf(d, [theirs]), view: contextOf(d, []).view };
    assert.throws(
      () => getAllReplicaSetsAndSyncRevision(s, true),
      new SyncError(`replicasets.apps "foo-${HASH}" already exists`),
    );
    const [status] = writesOf(s);
    assert.deepEqual([status?.verb, bodyOf<Deployment>(status).status?.collisionCount], ['UpdateStatus', 1]);
    const next = { ...d, status: { collisionCount: 1 } };
    assert.notEqual(computeHash(next.spec.template, 1), HASH, 'the next sync creates under another name');
  });
});

describe('getNewReplicaSet: the existing new ReplicaSet', () => {
  const old = revised(oldTemplate(newReplicaSet(d, 'foo-old', 0)), '3');
  it('given a new ReplicaSet below the next revision, then it is updated (revision, history, minReadySeconds) and the Deployment waits for the next call', () => {
    const cur = revised(newReplicaSet(d, 'foo-new', 3), '2');
    const s = contextOf({ ...d, spec: { ...d.spec, minReadySeconds: 5 } }, [old, cur]);
    getAllReplicaSetsAndSyncRevision(s, false);
    const writes = writesOf(s);
    assert.deepEqual(
      writes.map((m) => [m.verb, m.target.name]),
      [['Update', 'foo-new']],
    );
    const body = bodyOf<ReplicaSet>(writes[0]);
    assert.deepEqual(
      [
        body.metadata.annotations?.[REVISION],
        body.metadata.annotations?.['deployment.kubernetes.io/revision-history'],
        body.spec.minReadySeconds,
      ],
      ['4', '2', 5],
    );
  });

  it('given a second call in the same sync (isScalingEvent then the rollout), then it reads the view: the Deployment takes the revision, the ReplicaSet is written once', () => {
    const cur = revised(newReplicaSet(d, 'foo-new', 3), '2');
    const s = contextOf(d, [old, cur]);
    getAllReplicaSetsAndSyncRevision(s, false);
    getAllReplicaSetsAndSyncRevision(s, false);
    const writes = writesOf(s);
    assert.deepEqual(
      writes.map((m) => m.verb),
      ['Update', 'UpdateStatus'],
    );
    const written = bodyOf<Deployment>(writes[1]);
    assert.equal(written.metadata.annotations?.[REVISION], '4');
    assert.deepEqual(
      written.status?.conditions?.map((c) => [c.reason, c.message]),
      [[REASONS.FoundNewRSReason, 'Found new replica set "foo-new"']],
    );
  });

  it('given a ReplicaSet and Deployment already in sync, then nothing is written', () => {
    const synced = withAnnotations(d, { [REVISION]: '4' });
    const s = contextOf({ ...synced, status: { conditions: [{ type: PROGRESSING, status: 'True' }] } }, [
      old,
      revised(newReplicaSet(d, 'foo-new', 3), '4'),
    ]);
    getAllReplicaSetsAndSyncRevision(s, true);
    assert.equal(writesOf(s).length, 0);
  });
});
