import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { MutationResult } from '@kcm-bus/runtime/mutation/index.ts';
import { explainCause, podState } from './explain.ts';
import type { Version } from './history-format.ts';
import type { Json } from './object-diff.ts';

const cause = {
  topic: 'kcm.state.replicationcontrollers',
  partition: 2,
  offset: 1234,
  key: 'demo/web',
  resourceVersion: '5678',
};
const version = (resourceVersion: string, object: Json, type: Version['type'] = 'Applied'): Version => ({
  topic: 'kcm.watch.replicationcontrollers',
  partition: 2,
  offset: '9',
  timestamp: 0,
  observedAt: '',
  resourceVersion,
  type,
  object,
});
const rc = (replicas: number, generation: number): Json => ({ metadata: { generation }, spec: { replicas } });
const rcVersion = (v: Version, previous?: Version) => ({
  kind: 'version' as const,
  objectKind: 'ReplicationController',
  key: 'demo/web',
  version: v,
  previous,
});

describe('explainCause', () => {
  it('given an RC version scaled 7 → 3, then it says so with the other changed fields and where the record is', () => {
    const e = explainCause(cause, rcVersion(version('5678', rc(3, 2)), version('5600', rc(7, 1))));
    assert.equal(
      e.text,
      'RC demo/web went from 7 to 3 replicas (also changed: metadata.generation) (kcm.state.replicationcontrollers 2@1234, rv 5678)',
    );
    assert.deepEqual(
      e.diff.map((d) => d.path),
      ['metadata.generation', 'spec.replicas'],
    );
  });

  it('given an RC version without one before it, then the RC was created with its replicas', () => {
    assert.match(
      explainCause(cause, rcVersion(version('5678', rc(3, 1)))).text,
      /^RC demo\/web was created with 3 replicas \(/,
    );
  });

  it('given a pod version, then it lists what changed on the pod', () => {
    const pod = (phase: string): Json => ({ status: { phase } });
    const e = explainCause(
      { ...cause, topic: 'kcm.state.pods', key: 'demo/web-x' },
      {
        kind: 'version',
        objectKind: 'Pod',
        key: 'demo/web-x',
        version: version('7', pod('Running')),
        previous: version('6', pod('Pending')),
      },
    );
    assert.equal(e.text, 'pod demo/web-x changed: ~ status.phase: "Pending" → "Running" (kcm.state.pods 2@1234, rv 7)');
  });

  it('given a result, then it is a retry after that outcome of that mutation', () => {
    const result = {
      mutationId: 'abc',
      verb: 'Create',
      outcome: 'Failed',
      status: 422,
      reason: 'Invalid',
      name: 'web-x',
      target: { name: '' },
    } as unknown as MutationResult;
    assert.equal(
      explainCause({ topic: 'kcm.mutation-results', partition: 2, offset: 5 }, { kind: 'result', result }).text,
      'retry after Failed 422 Invalid of mutation abc (Create web-x)',
    );
  });

  it("given a tick, then it is the periodic tick at the tick's time", () => {
    assert.equal(
      explainCause({ topic: '~tick', partition: 0, offset: Date.UTC(2026, 0, 1, 10, 42, 7) }, { kind: 'tick' }).text,
      'periodic tick at 10:42:07Z',
    );
  });

  it('given an activation, then it is the member becoming active at its time', () => {
    assert.equal(
      explainCause(
        { topic: '~activated', partition: 0, offset: Date.UTC(2026, 0, 1, 10, 42, 7) },
        { kind: 'activated' },
      ).text,
      'the member became active at 10:42:07Z: a pass over its global inputs',
    );
  });

  it('given an unresolved cause, then it says why, naming the record', () => {
    assert.equal(
      explainCause(
        { topic: 'kcm.state.pods', partition: 1, offset: 3 },
        { kind: 'unresolved', why: 'input no longer in the state topic' },
      ).text,
      'input no longer in the state topic (kcm.state.pods 1@3)',
    );
  });
});

describe('podState', () => {
  const pod = (status: Json, spec: Json = { nodeName: 'n1' }, metadata: Json = {}): Json => ({
    metadata,
    spec,
    status,
  });
  it('given pods along their life, then their state reads as upstream ranks them', () => {
    assert.deepEqual(
      [
        pod({ phase: 'Pending' }, {}),
        pod({ phase: 'Pending' }),
        pod({ phase: 'Running', conditions: [{ type: 'Ready', status: 'False' }] }),
        pod({ phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] }),
        pod({ phase: 'Running' }, { nodeName: 'n1' }, { deletionTimestamp: 't' }),
        pod({ phase: 'Succeeded' }),
      ].map(podState),
      ['pending (unscheduled)', 'pending', 'not ready', 'ready', 'terminating', 'succeeded'],
    );
  });
});
