import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { container, NOW, resources, text, type Quantities } from './evaluator.fixture.ts';
import { podUsage } from './pods.ts';

const count = { 'count/pods': '1' };
const charged = { ...count, pods: '1' };
const cpu12 = { ...charged, 'requests.cpu': '1m', 'limits.cpu': '2m', cpu: '1m' };
const mem12 = { ...charged, 'requests.memory': '1m', 'limits.memory': '2m', memory: '1m' };
const eph = { ...charged, 'ephemeral-storage': '32Mi', 'requests.ephemeral-storage': '32Mi' };
const ephemeral = { ...eph, 'limits.ephemeral-storage': '64Mi' };
const huge = { ...charged, 'hugepages-2Mi': '100Mi', 'requests.hugepages-2Mi': '100Mi' };
const dongle = { 'example.com/dongle': '3' };
const implicitDongle = { 'deviceclass.resource.kubernetes.io/dongle': '3' };
const past = new Date(NOW.getTime() - 60_000).toISOString();

const initPod = (requests?: Quantities, limits?: Quantities) => ({
  spec: { initContainers: [container(requests, limits)] },
});
const pod = (requests?: Quantities, limits?: Quantities) => ({ spec: { containers: [container(requests, limits)] } });
const rl = (cpu: string, memory: string, dongles: string) => ({ cpu, memory, 'example.com/dongle': dongles });

describe('podUsage (TestPodEvaluatorUsage)', () => {
  const cases: readonly [string, object, Record<string, string>][] = [
    ['init container CPU', initPod({ cpu: '1m' }, { cpu: '2m' }), cpu12],
    ['init container MEM', initPod({ memory: '1m' }, { memory: '2m' }), mem12],
    [
      'init container local ephemeral storage',
      initPod({ 'ephemeral-storage': '32Mi' }, { 'ephemeral-storage': '64Mi' }),
      ephemeral,
    ],
    ['init container hugepages', initPod({ 'hugepages-2Mi': '100Mi' }), huge],
    ['init container extended resources', initPod(dongle, dongle), { ...charged, 'requests.example.com/dongle': '3' }],
    [
      'init container implicit extended resources',
      initPod(implicitDongle, implicitDongle),
      { ...charged, 'requests.deviceclass.resource.kubernetes.io/dongle': '3' },
    ],
    ['container CPU', pod({ cpu: '1m' }, { cpu: '2m' }), cpu12],
    ['container MEM', pod({ memory: '1m' }, { memory: '2m' }), mem12],
    [
      'container local ephemeral storage',
      pod({ 'ephemeral-storage': '32Mi' }, { 'ephemeral-storage': '64Mi' }),
      ephemeral,
    ],
    ['container hugepages', pod({ 'hugepages-2Mi': '100Mi' }), huge],
    ['container extended resources', pod(dongle, dongle), { ...charged, 'requests.example.com/dongle': '3' }],
    [
      'container implicit extended resources',
      pod(implicitDongle, implicitDongle),
      { ...charged, 'requests.deviceclass.resource.kubernetes.io/dongle': '3' },
    ],
    ['terminated generic count still appears', { ...pod(dongle, dongle), status: { phase: 'Succeeded' } }, count],
    [
      'init container maximums override sum of containers',
      {
        spec: {
          initContainers: [
            container(rl('4', '100M', '4'), rl('8', '200M', '4')),
            container(rl('1', '50M', '2'), rl('2', '100M', '2')),
          ],
          containers: [
            container(rl('1', '50M', '1'), rl('2', '100M', '1')),
            container(rl('2', '25M', '2'), rl('5', '50M', '2')),
          ],
        },
      },
      {
        ...charged,
        ...{ 'requests.cpu': '4', 'requests.memory': '100M', 'limits.cpu': '8', 'limits.memory': '200M' },
        ...{ cpu: '4', memory: '100M', 'requests.example.com/dongle': '4' },
      },
    ],
    [
      'pod deletion timestamp exceeded',
      {
        metadata: { deletionTimestamp: past, deletionGracePeriodSeconds: 30 },
        ...pod(rl('1', '50M', '0'), rl('2', '100M', '0')),
      },
      count,
    ],
    [
      'pod deletion timestamp not exceeded',
      {
        metadata: { deletionTimestamp: NOW.toISOString(), deletionGracePeriodSeconds: 30 },
        ...pod({ cpu: '1' }, { cpu: '2' }),
      },
      { ...charged, 'requests.cpu': '1', 'limits.cpu': '2', cpu: '1' },
    ],
    [
      'count pod overhead as usage',
      { spec: { overhead: { cpu: '1' }, containers: [container({ cpu: '1' }, { cpu: '2' })] } },
      { ...charged, 'requests.cpu': '2', 'limits.cpu': '3', cpu: '2' },
    ],
    ['pod-level CPU', { spec: { resources: resources({ cpu: '1m' }, { cpu: '2m' }) } }, cpu12],
    [
      'pod-level Memory',
      { spec: { resources: resources({ memory: '1Mi' }, { memory: '2Mi' }) } },
      { ...charged, 'requests.memory': '1Mi', 'limits.memory': '2Mi', memory: '1Mi' },
    ],
    [
      'pod-level memory with container-level ephemeral storage',
      {
        spec: {
          resources: resources({ memory: '1Mi' }, { memory: '2Mi' }),
          containers: [container({ 'ephemeral-storage': '32Mi' }, { 'ephemeral-storage': '64Mi' })],
        },
      },
      { ...ephemeral, 'requests.memory': '1Mi', 'limits.memory': '2Mi', memory: '1Mi' },
    ],
  ];
  for (const [name, item, expected] of cases) {
    it(name, () => assert.deepEqual(text(podUsage(item, NOW).usage), expected));
  }
});
