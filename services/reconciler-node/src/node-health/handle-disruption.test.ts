import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { NodeCondition } from '@kcm-bus/k8s/node-v1.ts';
import { computeZoneState, reducedQPSFunc } from './handle-disruption.ts';
import { DEFAULT_NODE_LIFECYCLE_CONFIG } from './node-health-spec.ts';

const c = (status: NodeCondition['status']): NodeCondition => ({ type: 'Ready', status });

describe('ComputeZoneState', () => {
  const cases: readonly [string, (NodeCondition | undefined)[], string, number][] = [
    ['all Ready', [c('True'), c('True')], 'Normal', 0],
    ['no Ready node', [c('False'), c('Unknown')], 'FullDisruption', 2],
    ['a Ready condition missing counts as not Ready', [undefined], 'FullDisruption', 1],
    ['two of three down: not more than 2', [c('True'), c('False'), c('False')], 'Normal', 2],
    ['three of four down (>= 0.55)', [c('True'), c('False'), c('False'), c('Unknown')], 'PartialDisruption', 3],
    ['three of six down (< 0.55)', [c('True'), c('True'), c('True'), c('False'), c('False'), c('False')], 'Normal', 3],
  ];
  for (const [name, ready, state, notReady] of cases) {
    it(`given ${name}, then the zone is ${state}`, () => {
      assert.deepEqual(computeZoneState(ready, 0.55), { notReady, state });
    });
  }
});

describe('ReducedQPSFunc', () => {
  it('given a zone above largeClusterThreshold, then the secondary rate; at or below, 0', () => {
    assert.equal(reducedQPSFunc(DEFAULT_NODE_LIFECYCLE_CONFIG, 51), 0.01);
    assert.equal(reducedQPSFunc(DEFAULT_NODE_LIFECYCLE_CONFIG, 50), 0);
  });
});
