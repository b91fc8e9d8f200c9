/*
 * The quota controller's evaluators: NewEvaluators (pkg/quota/v1/evaluator/core/registry.go) plus the object-count
 * evaluators its monitors add for the other resources they watch (resource_quota_monitor.go), in a registry
 * (generic.NewRegistry) of the resources this process knows.
 */
import { objectCountEvaluator, type Evaluator } from './evaluator.ts';
import { pvcEvaluator } from './persistent-volume-claims.ts';
import { podEvaluator } from './pods.ts';
import { claimEvaluator } from './resource-claims.ts';
import { serviceEvaluator } from './services.ts';

export type { Evaluator } from './evaluator.ts';

/**
 * QuotaObjects lists the objects of a group resource ('pods', 'services', 'persistentvolumeclaims', 'configmaps',
 * 'resourceclaims.resource.k8s.io', 'replicasets.apps', 'jobs.batch') in one namespace; undefined when this process
 * does not know that resource (no evaluator then).
 */
export type QuotaObjects = { list(groupResource: string, namespace: string): readonly unknown[] | undefined };

/** Registry is quota.Registry's Get and List. */
export type Registry = { get(groupResource: string): Evaluator | undefined; list(): readonly Evaluator[] };

/** LEGACY_OBJECT_COUNT_ALIASES is legacyObjectCountAliases: the old name each of these is also counted under. */
const LEGACY_OBJECT_COUNT_ALIASES: readonly (readonly [string, string])[] = [
  ['configmaps', 'configmaps'],
  ['resourcequotas', 'resourcequotas'],
  ['replicationcontrollers', 'replicationcontrollers'],
  ['secrets', 'secrets'],
];

/**
 * quotaRegistry is NewEvaluators(...) of pkg/quota/v1/evaluator/core/registry.go plus a generic ObjectCountEvaluator
 * for every other counted group resource ('configmaps', 'secrets', 'replicationcontrollers', 'replicasets.apps', …).
 * now is the clock (a pod past its deletion grace stops counting). The ResourceClaim evaluator comes after the PVC
 * one, as upstream's does with DynamicResourceAllocation locked on (v1.37.2), but without DeviceClasses (see
 * resource-claims.ts). Only the resources objects knows get an evaluator (list(groupResource, '') is not undefined);
 * should a list still come back undefined, that evaluator's usage fails as upstream's does when its lister fails.
 */
export function quotaRegistry(objects: QuotaObjects, countedResources: readonly string[], now: () => Date): Registry {
  const lister = (groupResource: string) => (namespace: string) => objects.list(groupResource, namespace);
  const evaluators = new Map<string, Evaluator>();
  const register = (e: Evaluator): void => {
    if (!evaluators.has(e.groupResource)) evaluators.set(e.groupResource, e);
  };
  register(podEvaluator(lister('pods'), now));
  register(serviceEvaluator(lister('services')));
  register(pvcEvaluator(lister('persistentvolumeclaims')));
  register(claimEvaluator(lister('resourceclaims.resource.k8s.io')));
  for (const [resource, alias] of LEGACY_OBJECT_COUNT_ALIASES)
    register(objectCountEvaluator(resource, lister(resource), alias));
  for (const resource of countedResources)
    if (!evaluators.has(resource)) register(objectCountEvaluator(resource, lister(resource)));
  const known = [...evaluators.values()].filter((e) => objects.list(e.groupResource, '') !== undefined);
  const byResource = new Map(known.map((e) => [e.groupResource, e]));
  return { get: (groupResource) => byResource.get(groupResource), list: () => known };
}
