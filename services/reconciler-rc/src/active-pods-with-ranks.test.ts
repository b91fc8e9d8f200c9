import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  activePodsWithRanksLess,
  deletionCost,
  getPodsToDelete,
  logarithmicRankDiff,
  POD_DELETION_COST,
} from './active-pods-with-ranks.ts';
import { objectNames } from '@kcm-bus/k8s/cluster.fixture.ts';
import type { Pod } from '@kcm-bus/k8s/core-v1.ts';
import { newCluster } from './cluster.fixture.ts';
import { getPodKeys } from './manage-replicas.ts';
import { at, newPod, newRc, T0 } from './rc.fixture.ts';
import { convergeRc, sync } from './sync.fixture.ts';

const rc = newRc(1, { name: 'foo' });
const unscheduledPending = newPod('unscheduled-pending-pod', rc, { phase: 'Pending' });
const scheduledPending = newPod('scheduled-pending-pod', rc, { phase: 'Pending', node: 'fake-node' });
const runningNotReady = newPod('scheduled-running-not-ready-pod', rc, { node: 'fake-node', ready: false });
const readyOnNode1 = newPod('scheduled-running-ready-pod-on-node-1', rc, { node: 'fake-node-1' });
const readyOnNode2 = newPod('scheduled-running-ready-pod-on-node-2', rc, { node: 'fake-node-2' });
const names = (pods: readonly Pod[]): string[] => pods.map((p) => p.metadata.name);

describe('TestGetPodsToDelete', () => {
  const cases: readonly { name: string; pods: Pod[]; related?: Pod[]; diff: number; expected: Pod[] }[] = [
    { name: 'len(pods) = 0 (i.e., diff = 0 too)', pods: [], diff: 0, expected: [] },
    {
      name: 'diff = len(pods)',
      pods: [runningNotReady, readyOnNode1],
      diff: 2,
      expected: [runningNotReady, readyOnNode1],
    },
    { name: 'diff < len(pods)', pods: [readyOnNode1, runningNotReady], diff: 1, expected: [runningNotReady] },
    {
      name: 'various pod phases and conditions, diff = len(pods)',
      pods: [readyOnNode1, readyOnNode1, readyOnNode2, runningNotReady, scheduledPending, unscheduledPending],
      diff: 6,
      expected: [readyOnNode1, readyOnNode1, readyOnNode2, runningNotReady, scheduledPending, unscheduledPending],
    },
    {
      name: 'various pod phases and conditions, diff = len(pods), relatedPods empty',
      pods: [readyOnNode1, readyOnNode1, readyOnNode2, runningNotReady, scheduledPending, unscheduledPending],
      related: [],
      diff: 6,
      expected: [readyOnNode1, readyOnNode1, readyOnNode2, runningNotReady, scheduledPending, unscheduledPending],
    },
    {
      name: 'scheduled vs unscheduled, diff < len(pods)',
      pods: [scheduledPending, unscheduledPending],
      diff: 1,
      expected: [unscheduledPending],
    },
    {
      name: 'ready vs not-ready, diff < len(pods)',
      pods: [readyOnNode1, runningNotReady, runningNotReady],
      diff: 2,
      expected: [runningNotReady, runningNotReady],
    },
    {
      name: 'ready and colocated with another ready pod vs not colocated, diff < len(pods)',
      pods: [readyOnNode1, readyOnNode2],
      related: [readyOnNode1, readyOnNode2, readyOnNode2],
      diff: 1,
      expected: [readyOnNode2],
    },
    {
      name: 'pending vs running, diff < len(pods)',
      pods: [scheduledPending, runningNotReady],
      diff: 1,
      expected: [scheduledPending],
    },
    {
      name: 'various pod phases and conditions, diff < len(pods)',
      pods: [readyOnNode1, readyOnNode2, runningNotReady, scheduledPending, unscheduledPending],
      diff: 3,
      expected: [unscheduledPending, scheduledPending, runningNotReady],
    },
  ];
  for (const tc of cases) {
    it(`given "${tc.name}", then the pods to delete are ${names(tc.expected).join(', ') || 'none'}`, () => {
      assert.deepEqual(names(getPodsToDelete(tc.pods, tc.related ?? tc.pods, tc.diff, T0)), names(tc.expected));
    });
  }
});

describe('ActivePodsWithRanks.Less: the rules after readiness', () => {
  const ranked = (pod: Pod, rank = 0) => ({ pod, rank });
  const less = (a: Pod, b: Pod) => activePodsWithRanksLess(ranked(a), ranked(b), T0);

  it('given different pod-deletion-cost annotations, then the lower cost goes first, even before a higher rank', () => {
    const cheap = newPod('cheap', rc, { annotations: { [POD_DELETION_COST]: '-5' } });
    const dear = newPod('dear', rc, { annotations: { [POD_DELETION_COST]: '10' } });
    assert.equal(activePodsWithRanksLess(ranked(cheap, 0), ranked(dear, 5), T0), true);
    assert.equal(activePodsWithRanksLess(ranked(dear, 5), ranked(cheap, 0), T0), false);
  });

  it('given malformed costs ("+1", "007", "1e3", out of int32), then they count as 0; "-0" and "0" are 0', () => {
    for (const v of ['+1', '007', '1e3', '2147483648', '', '-', '0', '-0'])
      assert.equal(deletionCost(newPod('p', rc, { annotations: { [POD_DELETION_COST]: v } })), 0, v);
    assert.equal(deletionCost(newPod('p', rc, { annotations: { [POD_DELETION_COST]: '-2147483648' } })), -(2 ** 31));
  });

  it('given both ready, then the one ready more recently goes first, when their log2 buckets differ', () => {
    assert.equal(less(newPod('new', rc, { readySince: at(-10) }), newPod('old', rc, { readySince: at(-3600) })), true);
  });

  it('given both ready in the same log2 bucket, then the lower UID goes first', () => {
    const [a, b] = [newPod('a', rc, { readySince: at(-3600) }), newPod('b', rc, { readySince: at(-3500) })];
    assert.equal(logarithmicRankDiff(Date.parse(at(-3600)), Date.parse(at(-3500)), T0.getTime()), 0);
    assert.deepEqual([less(a, b), less(b, a)], [true, false]);
  });

  it('given an unknown ready time, then it goes first (afterOrZero)', () => {
    assert.equal(less(newPod('zero', rc), newPod('known', rc, { readySince: at(-10) })), true);
  });

  it('given more container restarts, then that pod goes first', () => {
    assert.equal(
      less(
        newPod('crashy', rc, { restarts: 5, readySince: at(-60) }),
        newPod('calm', rc, { restarts: 0, readySince: at(-60) }),
      ),
      true,
    );
  });

  it('given creation times in different buckets, then the newer goes first; an empty creation time goes before both', () => {
    assert.equal(less(newPod('young', rc, { created: at(-5) }), newPod('old', rc, { created: at(-86400) })), true);
    assert.equal(less(newPod('unknown', rc), newPod('young', rc, { created: at(-5) })), true);
  });
});

describe('TestGetPodKeys', () => {
  it('given "len(pods) = 0 (i.e., pods = nil)", then no keys', () => assert.deepEqual(getPodKeys([]), []));
  it('given "len(pods) > 0", then default/pod1, default/pod2', () => {
    assert.deepEqual(getPodKeys([newPod('pod1', rc), newPod('pod2', rc)]), ['default/pod1', 'default/pod2']);
  });
});

describe('TestLogarithmicScaleDown (integration, reconcile-level)', () => {
  it('given 2 pods 10 s old scaled to 3 and back to 2, when reconciled, then the newest pod is deleted', () => {
    const two = newRc(2);
    const c = newCluster(
      [two],
      [
        newPod('old-1', two, { created: at(-10), readySince: at(-10) }),
        newPod('old-2', two, { created: at(-10), readySince: at(-10) }),
      ],
    );
    c.objects.replicationcontrollers.set('default/foobar', { ...two, spec: { ...two.spec, replicas: 3 } });
    convergeRc(c, 'default/foobar');
    const newest = objectNames(c, 'pods').find((n) => !n.startsWith('old'))!;
    c.objects.replicationcontrollers.set('default/foobar', {
      ...c.objects.replicationcontrollers.get('default/foobar')!,
      spec: { ...two.spec, replicas: 2 },
    });
    const later = new Date(T0.getTime() + 1000);
    const deleted = sync(c, 'default/foobar', { now: later })
      .mutations.filter((m) => m.verb === 'Delete')
      .map((m) => m.target.name);
    assert.deepEqual(deleted, [newest]);
  });
});
