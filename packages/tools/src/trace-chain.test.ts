import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { aMutation } from '@kcm-bus/runtime/mutation/mutation.fixture.ts';
import { ACTIVATED_TOPIC } from '@kcm-bus/runtime/controller/index.ts';
import type { MutationResult } from '@kcm-bus/runtime/mutation/index.ts';
import { watchedKind } from '@kcm-bus/schemas/kinds.ts';
import type { Version } from './history-format.ts';
import type { Json } from './object-diff.ts';
import { evidenceFor, formatTrace, stepJson, traceSteps, type InputRecord, type TraceFound } from './trace-chain.ts';

const PODS = watchedKind('pods');
const RCS = 'kcm.watch.replicationcontrollers';
const version = (topic: string, resourceVersion: string, timestamp: number, object: Json): Version => ({
  topic,
  partition: 2,
  offset: resourceVersion,
  timestamp,
  observedAt: '',
  resourceVersion,
  type: 'Applied',
  object,
});
const rcV = (rv: string, replicas: number): Version => version(RCS, rv, 0, { spec: { replicas } });
const readyPod = version('kcm.watch.pods', '50', Date.UTC(2026, 0, 1, 10, 42, 0), {
  spec: { nodeName: 'n1' },
  status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] },
});
const stateCause = {
  topic: 'kcm.state.replicationcontrollers',
  partition: 2,
  offset: 1234,
  key: 'demo/web',
  resourceVersion: '60',
};
const deletion = aMutation({ id: 'm-del', createdAt: '2026-01-01T10:42:07.5Z', cause: [stateCause] });
const applied = {
  mutationId: 'm-del',
  outcome: 'Applied',
  status: 200,
  reason: null,
  message: '',
  appliedAt: '2026-01-01T10:42:08Z',
} as unknown as MutationResult;

/** found is what trace read: the deletion of pod demo/web-1, its result, and the histories of the RC (3 → 1) and of the pod. */
function found(overrides: Partial<TraceFound> = {}): TraceFound {
  return {
    mutations: [{ partition: 2, offset: '77', mutation: deletion }],
    results: new Map([['m-del', applied]]),
    causeResults: new Map(),
    inputs: new Map(),
    histories: new Map([
      ['replicationcontrollers', new Map([['demo/web', [rcV('40', 3), rcV('60', 1)]]])],
      ['pods', new Map([['demo/web-1', [readyPod]]])],
    ]),
    ...overrides,
  };
}

describe('traceSteps and formatTrace', () => {
  it("given a pod deleted after its RC was scaled 3 → 1, then the chain names who, when, the outcome, the scale-down and the pod's state", () => {
    assert.deepEqual(formatTrace(PODS, 'demo/web-1', traceSteps(PODS, 'demo/web-1', found())), [
      'pods demo/web-1: 1 mutation in kcm.mutations',
      'deleted by replicationcontroller-controller at 10:42:07Z (Applied 200): RC demo/web went from 3 to 1 replicas (kcm.state.replicationcontrollers 2@1234, rv 60); this pod was ready',
      '    mutation m-del (kcm.mutations 2@77, created 2026-01-01T10:42:07.5Z)',
    ]);
  });

  it("given --json, then each mutation carries its result, its causes with the diff, and the pod's state", () => {
    const json = stepJson(PODS, traceSteps(PODS, 'demo/web-1', found())[0]!);
    assert.deepEqual(json['result'], {
      outcome: 'Applied',
      status: 200,
      reason: null,
      message: '',
      appliedAt: '2026-01-01T10:42:08Z',
    });
    assert.deepEqual((json['causes'] as { diff: unknown }[])[0]?.diff, [
      { op: '~', path: 'spec.replicas', from: 3, to: 1 },
    ]);
    assert.deepEqual(json['before'], { resourceVersion: '50', state: 'ready' });
  });

  it('given no result yet, then the chain says so', () => {
    assert.match(
      formatTrace(PODS, 'demo/web-1', traceSteps(PODS, 'demo/web-1', found({ results: new Map() })))[1] ?? '',
      /\(no result\): /,
    );
  });

  it('given a delete whose sync was caused by a conflicted status write, then the chain adds what the RC wanted then and when it changed', () => {
    const resultCause = { topic: 'kcm.mutation-results', partition: 2, offset: 9, key: 'demo/web' };
    const conflict = {
      ...applied,
      mutationId: 'm-status',
      verb: 'UpdateStatus',
      outcome: 'Conflict',
      status: 409,
      reason: 'Conflict',
      name: 'web',
    } as unknown as MutationResult;
    const retried = aMutation({
      id: 'm-del',
      createdAt: '2026-01-01T10:42:07.5Z',
      reconcileKey: 'demo/web',
      cause: [resultCause],
    });
    const histories = new Map([
      ...found().histories,
      [
        'replicationcontrollers',
        new Map([['demo/web', [rcV('40', 3), { ...rcV('60', 1), timestamp: Date.UTC(2026, 0, 1, 10, 42, 6) }]]]),
      ],
    ]);
    const steps = traceSteps(
      PODS,
      'demo/web-1',
      found({
        mutations: [{ partition: 2, offset: '77', mutation: retried }],
        causeResults: new Map([['2@9', conflict]]),
        histories,
      }),
    );
    assert.equal(
      formatTrace(PODS, 'demo/web-1', steps)[1],
      'deleted by replicationcontroller-controller at 10:42:07Z (Applied 200): retry after Conflict 409 Conflict of mutation m-status (UpdateStatus web); ' +
        'RC demo/web wanted 1 replicas: it went from 3 to 1 replicas at rv 60 (10:42:06Z); this pod was ready',
    );
  });
});

describe('evidenceFor', () => {
  it('given a cause whose state record is still there but which names no key (an older mutation), then the record resolves it', () => {
    const { key: _k, resourceVersion: _r, ...older } = stateCause;
    const input: InputRecord = { ...rcV('60', 1), key: 'demo/web' };
    const e = evidenceFor(older, found({ inputs: new Map([['kcm.state.replicationcontrollers 2@1234', input]]) }));
    assert.deepEqual(e.kind === 'version' ? [e.version.resourceVersion, e.previous?.resourceVersion] : e, ['60', '40']);
  });

  it('given an older cause whose state record was compacted away, then it is no longer in the state topic', () => {
    const { key: _k, resourceVersion: _r, ...older } = stateCause;
    assert.deepEqual(evidenceFor(older, found()), { kind: 'unresolved', why: 'input no longer in the state topic' });
  });

  it('given the cause of a member becoming active (onActivated), then it is an activation, not an unknown input', () => {
    assert.deepEqual(evidenceFor({ topic: ACTIVATED_TOPIC, partition: 0, offset: 7000 }, found()), {
      kind: 'activated',
    });
  });

  it('given a cause outside the audit window and the state topic, then it says both', () => {
    assert.deepEqual(evidenceFor({ ...stateCause, resourceVersion: '99' }, found()), {
      kind: 'unresolved',
      why: 'input demo/web rv 99 no longer in the state topic nor in the audit window',
    });
  });
});
