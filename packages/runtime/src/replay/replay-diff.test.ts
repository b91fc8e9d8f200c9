import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { aCreate, aMutation, aRecordEvent, podTarget } from '../mutation/mutation.fixture.ts';
import type { Mutation } from '../mutation/mutation.ts';
import { compareDecisions, same, signature } from './replay-diff.ts';
import type { TimedDecision } from './replay-input.ts';

const rcStatus = (replicas: number, rv: string): Mutation =>
  aMutation({
    verb: 'UpdateStatus',
    target: {
      apiVersion: 'v1',
      kind: 'ReplicationController',
      namespace: 'default',
      name: 'web',
      resource: 'replicationcontrollers',
      subresource: 'status',
    },
    body: JSON.stringify({
      metadata: { name: 'web', namespace: 'default', resourceVersion: rv },
      status: { replicas, observedGeneration: 1 },
    }),
  });

function decided(at: number, ...mutations: Mutation[]): TimedDecision {
  return { at, key: 'default/web', mutations };
}

describe('signature', () => {
  it('leaves out what only a run decides: the generated name, the id, the resourceVersion, key order', () => {
    assert.equal(signature(aCreate({ id: 'a' })), signature(aCreate({ id: 'b' })));
    assert.equal(signature(aCreate()), 'Create pods default/web-*');
    assert.equal(signature(aMutation()), 'Delete pods default/web-1');
    assert.equal(signature(rcStatus(3, '10')), signature(rcStatus(3, '11')));
    assert.notEqual(signature(rcStatus(3, '10')), signature(rcStatus(2, '10')));
    assert.match(signature(aRecordEvent()), /^Event Normal SuccessfulCreate default\/web: Created pod/);
  });
});

describe('compareDecisions', () => {
  it('finds two runs that decided the same writes the same, however their status writes fell into syncs', () => {
    const deployed = [decided(1, aCreate(), aCreate(), rcStatus(0, '1')), decided(2, rcStatus(2, '2'))];
    const replayed = [
      decided(1, aCreate()),
      decided(1, aCreate(), rcStatus(0, '1')),
      decided(3, rcStatus(2, '3'), rcStatus(2, '4')),
    ];
    const [verdict] = compareDecisions(deployed, replayed);
    assert.ok(verdict && same(verdict), JSON.stringify(verdict));
    assert.equal(verdict.deployed, 4);
    assert.equal(verdict.replayed, 5);
  });

  it('counts creates and deletes one for one, and names what only one side did', () => {
    const other = aMutation({ target: { ...podTarget, name: 'web-2' } });
    const [verdict] = compareDecisions(
      [decided(1, aCreate(), aCreate(), aMutation())],
      [decided(1, aCreate(), other, rcStatus(1, '5'))],
    );
    assert.deepEqual(verdict?.onlyDeployed, ['Create pods default/web-*', 'Delete pods default/web-1']);
    assert.deepEqual(verdict?.onlyReplayed, ['Delete pods default/web-2', signature(rcStatus(1, '5'))]);
  });

  it('compares where the writes of an object end, not the way there', () => {
    const [verdict] = compareDecisions(
      [decided(1, rcStatus(1, '1')), decided(2, rcStatus(2, '2'))],
      [decided(1, rcStatus(2, '1')), decided(3, rcStatus(3, '2'))],
    );
    assert.deepEqual(verdict?.onlyDeployed, [signature(rcStatus(2, '2'))]);
    assert.deepEqual(verdict?.onlyReplayed, [signature(rcStatus(3, '2'))]);
  });

  it('takes a replayed sync that decided nothing as agreeing with the world: the object ends as the deployed controller left it', () => {
    const noOp = (at: number): TimedDecision => ({ at, key: 'default/web', mutations: [] });
    const deployed = [decided(2, rcStatus(1, '2'))];
    assert.ok(
      same(compareDecisions(deployed, [decided(1, rcStatus(2, '1')), noOp(3)])[0]!),
      'a content sync after both writes',
    );
    assert.ok(
      !same(compareDecisions(deployed, [decided(1, rcStatus(2, '1')), noOp(1.5)])[0]!),
      'content before the deployed write: no agreement with it',
    );
    assert.ok(
      same(compareDecisions([decided(2, aCreate())], [decided(1, aCreate(), rcStatus(3, '1')), noOp(3)])[0]!),
      'a transient write the deployed never made',
    );
    assert.deepEqual(compareDecisions([], [noOp(1)]), [], 'keys where neither side wrote are not listed');
  });

  it('marks repeats of a missing create', () => {
    const [verdict] = compareDecisions([decided(1, aCreate(), aCreate(), aCreate())], []);
    assert.deepEqual(verdict?.onlyDeployed, ['Create pods default/web-* ×3']);
  });
});
