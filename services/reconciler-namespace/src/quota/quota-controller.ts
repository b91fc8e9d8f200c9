import { equals, parseResourceList, type ResourceList } from '@kcm-bus/k8s/quota-resources.ts';
import type { ControllerSpec, HandlerOutput, Listers, ObjectEvent } from '@kcm-bus/runtime/controller/index.ts';
import { quotaRegistry, type Registry } from './evaluator/registry.ts';
import { replenishesOnUpdate, trackedBy } from './evaluator/replenish.ts';
import {
  BY_NAMESPACE,
  COUNTED_INPUTS,
  COUNTED_RESOURCES,
  type Counted,
  type CountedInput,
  type Quota,
  type QuotaInputs,
  quotaObjects,
  RESOURCE_QUOTAS,
} from './quota-objects.ts';
import { syncResourceQuota } from './sync-resource-quota.ts';

/**
 * quotaControllerSpec is upstream's NewController with its quota monitor: a quota added, deleted or with its
 * spec.hard changed is synced (addQuota, enqueueResourceQuota); an object deleted, or updated in a way that changes
 * its charge (DefaultUpdateFilter), syncs the quotas of its namespace that track its resource (replenishQuota).
 */
export function quotaControllerSpec(
  listers: Listers<QuotaInputs>,
  resyncPeriodMs: number,
  now: () => Date = () => new Date(),
): ControllerSpec<QuotaInputs> {
  const objects = quotaObjects(listers);
  const registryAt = (at: Date): Registry => quotaRegistry(objects, COUNTED_RESOURCES, () => at);
  const replenish = replenisher(listers, registryAt(now()), now);
  const counted = Object.fromEntries(
    Object.entries(COUNTED_INPUTS).map(([input, resource]) => [input, replenish(resource)]),
  ) as { readonly [K in CountedInput]: (event: ObjectEvent<Counted>) => HandlerOutput };
  const replenishQuotas = replenish(RESOURCE_QUOTAS);
  return {
    handlers: {
      resourceQuotas: (event) => ({
        enqueue: [...quotaChanged(event), ...replenishQuotas(event as ObjectEvent<Counted>).enqueue],
      }),
      ...counted,
    },
    reconcile: (key, input) =>
      syncResourceQuota(key, input, listers.resourceQuotas, registryAt(input.now), resyncPeriodMs),
  };
}

/** quotaChanged mirrors the quota informer's handlers: an update is of interest only when spec.hard changed. */
function quotaChanged(event: ObjectEvent<Quota>): readonly string[] {
  const { object, old } = event;
  return event.type === 'Applied' && old !== undefined && equals(hardOf(old), hardOf(object)) ? [] : [event.key];
}

const hardOf = (q: Quota): ResourceList => parseResourceList(q.spec?.hard ?? {}).list;

/**
 * replenisher is replenishQuota behind the monitors' handlers: deletes and charging updates, never adds (which quotas
 * track a resource does not depend on the clock: the registry is the spec's).
 */
function replenisher(listers: Listers<QuotaInputs>, registry: Registry, now: () => Date) {
  return (resource: string) =>
    (event: ObjectEvent<Counted>): HandlerOutput => {
      const replenishes =
        event.type === 'Deleted' ||
        (event.old !== undefined && replenishesOnUpdate(resource, event.old, event.object, now()));
      if (!replenishes) return { enqueue: [] };
      const quotas = listers.resourceQuotas.byIndex(BY_NAMESPACE, event.object.metadata.namespace ?? '');
      const tracking = quotas.filter((q) => trackedBy(registry, resource, Object.keys(q.status?.hard ?? {})));
      return { enqueue: tracking.map((q) => `${q.metadata.namespace}/${q.metadata.name}`) };
    };
}
