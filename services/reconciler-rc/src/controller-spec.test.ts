import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { listers, newCluster } from './cluster.fixture.ts';
import { observedInPods, setEvent } from './controller-spec.ts';
import { newPod, newRc } from './rc.fixture.ts';

describe('observedInPods: pending expectations the pods store already shows done (after a replay or a rebalance)', () => {
  const rc = newRc(3);
  const c = newCluster(
    [rc],
    [newPod('made', rc), newPod('going', rc, { deleting: '2026-11-22T14:00:00Z' }), newPod('kept', rc)],
  );

  it('given pending creations, then those whose pod is in the store are observed, the others still pending', () => {
    const pending = { satisfied: false, pendingCreates: ['default/made', 'default/not-yet'], pendingDeletes: [] };
    assert.deepEqual(observedInPods(listers(c).pods, pending), { creates: ['default/made'], deletes: [] });
  });

  it('given pending deletions, then pods gone or terminating are observed, a pod still running is not', () => {
    const pending = {
      satisfied: false,
      pendingCreates: [],
      pendingDeletes: ['default/gone', 'default/going', 'default/kept'],
    };
    assert.deepEqual(observedInPods(listers(c).pods, pending), {
      creates: [],
      deletes: ['default/gone', 'default/going'],
    });
  });
});

describe("setEvent: when a set's event syncs its key", () => {
  const rc = newRc(3);
  const event = (old: typeof rc | undefined) => ({
    type: 'Applied' as const,
    key: 'default/foobar',
    object: rc,
    old,
    live: true,
  });

  it('given a new RC, then it syncs at its cut (after the pods created before it are read), not at once', () => {
    assert.deepEqual(
      [setEvent(event(undefined)).enqueue, setEvent(event(undefined)).enqueueAtCut],
      [[], ['default/foobar']],
    );
  });

  it('given an RC changed, then it syncs at once', () => {
    const scaled = { ...rc, spec: { ...rc.spec, replicas: 5 } };
    assert.deepEqual(
      [setEvent({ ...event(rc), object: scaled }).enqueue, setEvent({ ...event(rc), object: scaled }).enqueueAtCut],
      [['default/foobar'], []],
    );
  });
});
