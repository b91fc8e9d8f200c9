import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatHistory, historyEntries, type Version } from './history-format.ts';
import type { Json } from './object-diff.ts';

const version = (offset: number, type: Version['type'], object: Json): Version => ({
  topic: 'kcm.watch.replicationcontrollers',
  partition: 2,
  offset: String(offset),
  timestamp: Date.UTC(2026, 0, 2, 10, 42, offset),
  observedAt: `2026-01-02T10:42:0${offset}.5Z`,
  resourceVersion: String(100 + offset),
  type,
  object,
});
const rc = (replicas: number): Json => ({ metadata: { uid: 'u1', labels: { app: 'web' } }, spec: { replicas } });

describe('historyEntries and formatHistory', () => {
  const versions = [
    version(1, 'Applied', rc(3)),
    version(2, 'Applied', rc(1)),
    version(3, 'Applied', rc(1)),
    version(4, 'Deleted', rc(1)),
  ];

  it('given an RC created, scaled 3 → 1, resynced and deleted, then the first is summarized and the others diffed', () => {
    const entries = historyEntries(versions);
    assert.equal(entries[0]?.summary, 'uid=u1 labels=app=web replicas=3');
    assert.deepEqual(entries[1]?.diff, [{ op: '~', path: 'spec.replicas', from: 3, to: 1 }]);
    assert.deepEqual(
      entries.slice(2).map((e) => [e.type, e.diff.length]),
      [
        ['Applied', 0],
        ['Deleted', 0],
      ],
    );
  });

  it('given the same versions, then the text reads as a timeline', () => {
    assert.deepEqual(formatHistory('replicationcontrollers demo/web', historyEntries(versions)), [
      'replicationcontrollers demo/web: 4 versions',
      '2026-01-02T10:42:01.000Z (observed 2026-01-02T10:42:01.5Z)  rv 101  Applied  kcm.watch.replicationcontrollers 2@1',
      '    first seen: uid=u1 labels=app=web replicas=3',
      '2026-01-02T10:42:02.000Z (observed 2026-01-02T10:42:02.5Z)  rv 102  Applied  kcm.watch.replicationcontrollers 2@2',
      '    ~ spec.replicas: 3 → 1',
      '2026-01-02T10:42:03.000Z (observed 2026-01-02T10:42:03.5Z)  rv 103  Applied  kcm.watch.replicationcontrollers 2@3',
      '    (no change to the object)',
      '2026-01-02T10:42:04.000Z (observed 2026-01-02T10:42:04.5Z)  rv 104  Deleted  kcm.watch.replicationcontrollers 2@4',
      '    deleted',
    ]);
  });

  it('given no version, then it says the object is not in the audit window', () => {
    assert.deepEqual(formatHistory('pods demo/x', []), ['pods demo/x: no version in the audit window']);
  });
});
