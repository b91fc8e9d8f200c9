import type { ObjectMeta } from '@kcm-bus/k8s/core-v1.ts';
import type { Listers } from '@kcm-bus/runtime/controller/index.ts';
import type { ResourceQuotaJson } from './evaluator/quota-status.ts';
import type { QuotaObjects } from './evaluator/registry.ts';

/** Counted is an object the controller counts or evaluates: what it reads is its evaluator's (pods, services, claims). */
export type Counted = { readonly metadata: ObjectMeta };

/** Quota is a quota as the store holds it, whole (the controller's write is a PUT of it). */
export type Quota = ResourceQuotaJson & Counted;

/**
 * COUNTED_INPUTS are the inputs the controller evaluates or counts beside the quotas, by the group resource quota names
 * them with: the controller's monitors (resource_quota_monitor.go), one per resource this deployment watches.
 */
export const COUNTED_INPUTS = {
  pods: 'pods',
  services: 'services',
  persistentVolumeClaims: 'persistentvolumeclaims',
  resourceClaims: 'resourceclaims.resource.k8s.io',
  replicationControllers: 'replicationcontrollers',
  replicaSets: 'replicasets.apps',
  deployments: 'deployments.apps',
  serviceAccounts: 'serviceaccounts',
  configMaps: 'configmaps',
  secrets: 'secrets',
  jobs: 'jobs.batch',
  cronJobs: 'cronjobs.batch',
  statefulSets: 'statefulsets.apps',
  daemonSets: 'daemonsets.apps',
} as const;

/** CountedInput is the name of one of COUNTED_INPUTS. */
export type CountedInput = keyof typeof COUNTED_INPUTS;

/** RESOURCE_QUOTAS is the quotas' own group resource: quotas count quotas too (`resourcequotas`, `count/resourcequotas`). */
export const RESOURCE_QUOTAS = 'resourcequotas';

/** QuotaInputs are what the controller reads: the quotas and what they count. */
export type QuotaInputs = { readonly resourceQuotas: Quota } & { readonly [K in CountedInput]: Counted };

/** BY_NAMESPACE is the index every input has: a namespace's objects (the namespace lister upstream's evaluators list). */
export const BY_NAMESPACE = 'namespace';

/** byNamespace is BY_NAMESPACE's index function. */
export const byNamespace = (o: Counted): string[] => [o.metadata.namespace ?? ''];

/** COUNTED_RESOURCES are the group resources the controller has a monitor of: every one it reads. */
export const COUNTED_RESOURCES: readonly string[] = [RESOURCE_QUOTAS, ...Object.values(COUNTED_INPUTS)];

/** quotaObjects lists a namespace's objects of a group resource from the inputs' stores (the monitors' listers). */
export function quotaObjects(listers: Listers<QuotaInputs>): QuotaObjects {
  const inputOf = new Map<string, keyof QuotaInputs>([
    [RESOURCE_QUOTAS, 'resourceQuotas'],
    ...Object.entries(COUNTED_INPUTS).map(([input, resource]) => [resource, input as CountedInput] as const),
  ]);
  return {
    list(groupResource, namespace) {
      const input = inputOf.get(groupResource);
      return input === undefined ? undefined : listers[input].byIndex(BY_NAMESPACE, namespace);
    },
  };
}
