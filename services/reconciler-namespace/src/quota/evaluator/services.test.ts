import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { text } from './evaluator.fixture.ts';
import { serviceEvaluator, serviceUsage } from './services.ts';

describe('service evaluator (TestServiceEvaluatorMatchesResources)', () => {
  it('matches services, services.nodeports and services.loadbalancers only', () => {
    const input = ['configmaps', 'cpu', 'services', 'services.nodeports', 'services.loadbalancers'];
    assert.deepEqual(serviceEvaluator(() => []).matchingResources(input), [
      'services',
      'services.loadbalancers',
      'services.nodeports',
    ]);
  });
});

describe('serviceUsage (TestServiceEvaluatorUsage)', () => {
  const usage = (nodePorts: string, loadBalancers: string) => ({
    'count/services': '1',
    services: '1',
    'services.nodeports': nodePorts,
    'services.loadbalancers': loadBalancers,
  });
  const ports = (...nodePorts: number[]) => nodePorts.map((nodePort, i) => ({ port: 27443 + i, nodePort }));
  const cases: readonly [string, object, Record<string, string>][] = [
    ['loadbalancer', { type: 'LoadBalancer' }, usage('0', '1')],
    ['loadbalancer_ports', { type: 'LoadBalancer', ports: ports(0) }, usage('1', '1')],
    ['loadbalancer_2_ports', { type: 'LoadBalancer', ports: ports(0, 0) }, usage('2', '1')],
    ['clusterip', { type: 'ClusterIP' }, usage('0', '0')],
    ['nodeports', { type: 'NodePort', ports: ports(0) }, usage('1', '0')],
    ['multi-nodeports', { type: 'NodePort', ports: ports(0, 0) }, usage('2', '0')],
    [
      'nodeports-disabled',
      { type: 'LoadBalancer', ports: ports(0, 0), allocateLoadBalancerNodePorts: false },
      usage('0', '1'),
    ],
    ['nodeports-default-enabled', { type: 'LoadBalancer', ports: ports(32001, 32002) }, usage('2', '1')],
    [
      'nodeports-explicitly-enabled',
      { type: 'LoadBalancer', ports: ports(0, 0), allocateLoadBalancerNodePorts: true },
      usage('2', '1'),
    ],
    [
      'nodeports-disabled-but-specified',
      { type: 'LoadBalancer', ports: ports(32001, 32002), allocateLoadBalancerNodePorts: false },
      usage('2', '1'),
    ],
    ['no type (ClusterIP by default)', {}, usage('0', '0')],
    ['ports of the wrong type count as none', { type: 'NodePort', ports: 'many' }, usage('0', '0')],
  ];
  for (const [name, spec, want] of cases) {
    it(name, () => assert.deepEqual(text(serviceUsage({ spec }).usage), want));
  }
});
