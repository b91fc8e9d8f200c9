import type { InputOptions } from '@kcm-bus/runtime/controller/index.ts';
import { BY_NAMESPACE, byNamespace, COUNTED_INPUTS, type CountedInput, type QuotaInputs } from './quota-objects.ts';

/** IDENTITY is what a count reads of an object: that it exists, in which namespace. */
const IDENTITY = ['metadata.name', 'metadata.namespace', 'metadata.uid', 'metadata.resourceVersion'];

/**
 * EVALUATED are the fields the evaluators read beyond the identity (pkg/quota/v1/evaluator/core): a pod's charge
 * (its containers' and init containers' resources, overhead, pod-level resources, and what the status says of them:
 * an in-place resize, the QoS class), scopes (activeDeadlineSeconds, priority class, affinity terms) and whether it
 * still counts (phase, deletion and its grace); a service's type and node ports; a claim's requests, storage class
 * (its beta annotation too) and volume attributes class; a resource claim's device requests.
 */
const EVALUATED: { readonly [K in CountedInput]?: readonly string[] } = {
  pods: [
    'metadata.deletionTimestamp',
    'metadata.deletionGracePeriodSeconds',
    'spec.containers.name',
    'spec.containers.resources',
    'spec.initContainers.name',
    'spec.initContainers.resources',
    'spec.initContainers.restartPolicy',
    'spec.overhead',
    'spec.resources',
    'spec.activeDeadlineSeconds',
    'spec.priorityClassName',
    'spec.affinity',
    'status.phase',
    'status.qosClass',
    'status.conditions',
    'status.containerStatuses',
    'status.initContainerStatuses',
  ],
  services: ['spec.type', 'spec.ports', 'spec.allocateLoadBalancerNodePorts'],
  persistentVolumeClaims: ['metadata.annotations', 'spec', 'status'],
  resourceClaims: ['spec', 'status'],
};

/** quotaInputs are the controller's input options: every input indexed by namespace, read for what it is used for. */
export function quotaInputs(): InputOptions<QuotaInputs> {
  const counted = Object.keys(COUNTED_INPUTS).map((input) => [
    input,
    {
      fields: [...IDENTITY, ...(EVALUATED[input as CountedInput] ?? [])],
      indexers: { [BY_NAMESPACE]: byNamespace },
    },
  ]);
  return {
    resourceQuotas: { indexers: { [BY_NAMESPACE]: byNamespace } },
    ...Object.fromEntries(counted),
  } as InputOptions<QuotaInputs>;
}
