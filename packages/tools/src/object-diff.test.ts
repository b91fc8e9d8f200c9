import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { diffObjects, formatDiffLine, summarize, type Json } from './object-diff.ts';

const rc = (replicas: number, extra: Record<string, Json> = {}): { readonly [k: string]: Json } => ({
  metadata: {
    name: 'web',
    namespace: 'demo',
    uid: 'u1',
    resourceVersion: String(100 + replicas),
    labels: { app: 'web' },
    ...extra,
  },
  spec: { replicas },
  status: {
    conditions: [
      { type: 'A', status: 'True' },
      { type: 'B', status: 'False' },
    ],
  },
});

describe('diffObjects', () => {
  it('given a scaled RC, then the one change is spec.replicas, and the resourceVersion is left out', () => {
    assert.deepEqual(diffObjects(rc(7), rc(3)).map(formatDiffLine), ['~ spec.replicas: 7 → 3']);
  });

  it('given an added label and a removed condition, then each is one line at its root', () => {
    const before = rc(3);
    const after = {
      ...rc(3, { labels: { app: 'web', x: 'y' } }),
      status: { conditions: [{ type: 'A', status: 'True' }] },
    };
    assert.deepEqual(diffObjects(before, after).map(formatDiffLine), [
      '+ metadata.labels.x: "y"',
      '- status.conditions[type=B]',
    ]);
  });

  it('given a keyed list reordered with one change, then the one change by its merge key, not every index; an unkeyed list by index', () => {
    const pod = (conditions: Json[], finalizers: Json[]): Json => ({
      status: { conditions },
      metadata: { finalizers },
    });
    const before = pod(
      [
        { type: 'PodScheduled', status: 'True' },
        { type: 'Ready', status: 'False' },
      ],
      ['a', 'b'],
    );
    const after = pod(
      [
        { type: 'Ready', status: 'True' },
        { type: 'PodScheduled', status: 'True' },
      ],
      ['b', 'a'],
    );
    assert.deepEqual(diffObjects(before, after).map(formatDiffLine), [
      '~ status.conditions[type=Ready].status: "False" → "True"',
      '~ metadata.finalizers[0]: "a" → "b"',
      '~ metadata.finalizers[1]: "b" → "a"',
    ]);
  });

  it('given a subtree that appeared, then it is one + line with its compact JSON, cut when long', () => {
    const lines = diffObjects({ spec: {} }, { spec: { nodeName: 'n1' }, status: { message: 'x'.repeat(200) } }).map(
      formatDiffLine,
    );
    assert.equal(lines[0], '+ spec.nodeName: "n1"');
    assert.match(lines[1] ?? '', /^\+ status: \{"message":"x+…$/);
    assert.ok((lines[1] ?? '').length < 100);
  });

  it('given a value that changed type, then it is a ~ line, not a descent', () => {
    assert.deepEqual(diffObjects({ a: { b: 1 } }, { a: [1] }), [{ op: '~', path: 'a', from: { b: 1 }, to: [1] }]);
  });

  it('given equal versions, then there is no line', () => {
    assert.deepEqual(diffObjects(rc(3), rc(3)), []);
  });
});

describe('summarize', () => {
  it('given an RC, then it names uid, labels and replicas', () => {
    assert.equal(summarize(rc(3)), 'uid=u1 labels=app=web replicas=3');
  });

  it('given a running pod, then it names node, phase and readiness', () => {
    const pod = {
      metadata: { uid: 'p1' },
      spec: { nodeName: 'n1' },
      status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] },
    };
    assert.equal(summarize(pod), 'uid=p1 node=n1 phase=Running ready=True');
  });
});
