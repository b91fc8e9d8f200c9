/*
 * Which object changes recalculate quotas: DefaultUpdateFilter (pkg/quota/v1/install/update_filter.go) at v1.37.2's
 * default gates (InPlacePodVerticalScaling and RecoverVolumeExpansionFailure locked on), and replenishQuota's test of
 * a quota (pkg/controller/resourcequota/resource_quota_controller.go).
 */
import { equals, type ResourceList } from '@kcm-bus/k8s/quota-resources.ts';
import { jsonEqual } from '@kcm-bus/k8s/json-equal.ts';
import { items, present, shape, text, type ContainerStatusJson, type PodJson, type ServiceJson } from './json.ts';
import { isTerminating, quotaV1Pod } from './pods.ts';
import { readList } from './quantities.ts';
import type { Registry } from './registry.ts';
import { quotaServiceType } from './services.ts';

/**
 * sameResources is apiequality.Semantic.DeepEqual of two container statuses' resources: both nil, or requests and
 * limits equal quantity by quantity (nil and empty alike) and the same claims.
 */
function sameResources(a: ContainerStatusJson, b: ContainerStatusJson): boolean {
  if (!present(a.resources) || !present(b.resources)) return present(a.resources) === present(b.resources);
  const [x, y] = [shape<Record<string, unknown>>(a.resources), shape<Record<string, unknown>>(b.resources)];
  const list = (v: unknown): ResourceList => readList(v, 'container status', []);
  return (
    equals(list(x['requests']), list(y['requests'])) &&
    equals(list(x['limits']), list(y['limits'])) &&
    jsonEqual(items(x['claims']), items(y['claims']))
  );
}

/**
 * hasResourcesChanged is hasResourcesChanged: a container (or init container) status of the old pod whose namesake
 * (the first of that name, podutil.GetContainerStatus) in the new pod reports other resources.
 */
export function hasResourcesChanged(oldPod: PodJson, newPod: PodJson): boolean {
  const changed = (olds: unknown, news: unknown): boolean => {
    const current = items(news).map((s) => shape<ContainerStatusJson>(s));
    return items(olds).some((o) => {
      const old = shape<ContainerStatusJson>(o);
      const now = current.find((s) => text(s.name) === text(old.name));
      return now !== undefined && !sameResources(old, now);
    });
  };
  return (
    changed(oldPod.status?.containerStatuses, newPod.status?.containerStatuses) ||
    changed(oldPod.status?.initContainerStatuses, newPod.status?.initContainerStatuses)
  );
}

/** podReplenishes is DefaultUpdateFilter's pods case: resources resized, scope changed, or no longer charged. */
function podReplenishes(oldObj: unknown, newObj: unknown, now: Date): boolean {
  const [oldPod, newPod] = [shape<PodJson>(oldObj), shape<PodJson>(newObj)];
  if (hasResourcesChanged(oldPod, newPod)) return true;
  if (isTerminating(oldPod) !== isTerminating(newPod)) return true;
  return quotaV1Pod(oldPod, now) && !quotaV1Pod(newPod, now);
}

/**
 * replenishesOnUpdate is DefaultUpdateFilter (pkg/quota/v1/install/update_filter.go): whether an update of an object
 * of this group resource must recalculate the quotas that track it (a pod turning terminal or changing resources, a
 * service changing type, a PVC whose requests change…). Deletes always replenish; adds never. For claims upstream's
 * RequiresQuotaReplenish compares two freshly allocated *Quantity pointers (AllocatedResources.Storage()), which never
 * match: every claim update replenishes.
 */
export function replenishesOnUpdate(groupResource: string, oldObj: unknown, newObj: unknown, now: Date): boolean {
  switch (groupResource) {
    case 'pods':
      return podReplenishes(oldObj, newObj, now);
    case 'services':
      return quotaServiceType(shape<ServiceJson>(oldObj)) !== quotaServiceType(shape<ServiceJson>(newObj));
    case 'persistentvolumeclaims':
      return true;
    default:
      return false;
  }
}

/**
 * trackedBy: whether a quota whose status.hard has these names is recalculated when an object of this group resource
 * changes (replenishQuota: evaluator.MatchingResources(quota resource names) non-empty).
 */
export function trackedBy(registry: Registry, groupResource: string, quotaHardNames: readonly string[]): boolean {
  const evaluator = registry.get(groupResource);
  return evaluator !== undefined && evaluator.matchingResources(quotaHardNames).length > 0;
}
