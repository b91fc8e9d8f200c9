/*
 * PodRequests and PodLimits (k8s.io/component-helpers resource/helpers.go) with the options PodUsageFunc passes at
 * v1.37.2's default feature gates: UseStatusResources (InPlacePodVerticalScaling, GA and locked on), pod-level
 * resources applied (PodLevelResources, beta, on), InPlacePodLevelResourcesVerticalScalingEnabled unset (PodUsageFunc
 * does not pass it), no DRA node-allocatable claim status, overhead included.
 */
import { isZeroQuantity, type Quantity } from '@kcm-bus/k8s/quantity.ts';
import { add, type ResourceList } from '@kcm-bus/k8s/quota-resources.ts';
import { items, objectName, present, record, shape, text } from './json.ts';
import type { ContainerJson, ContainerStatusJson, PodJson, ResourceRequirementsJson } from './json.ts';
import { maxInto, maxOf, readList } from './quantities.ts';
import { HUGE_PAGES_PREFIX } from './resource-names.ts';

/** PodReader reads one pod's resource lists, collecting its malformed quantities. */
type PodReader = { readonly pod: PodJson; readonly errors: string[] };

/** ContainerList picks a container's list: the spec's or its status' (undefined: nil). */
type ContainerList = (c: ContainerJson, status: ContainerStatusJson | undefined, infeasible: boolean) => unknown;

const requirements = (r: unknown): ResourceRequirementsJson => shape<ResourceRequirementsJson>(r);
const specRequests: ContainerList = (c) => requirements(c.resources).requests;
const specLimits: ContainerList = (c) => requirements(c.resources).limits;

/** allocatedRequests is containerAllocatedRequests. */
const allocatedRequests: ContainerList = (c, cs, infeasible) => {
  if (present(cs?.allocatedResources)) return cs?.allocatedResources;
  return infeasible ? undefined : specRequests(c, cs, infeasible);
};

/** actuatedRequests is containerActuatedRequests. */
const actuatedRequests: ContainerList = (c, cs, infeasible) => {
  const actual = requirements(cs?.resources).requests;
  if (present(cs?.resources) && present(actual)) return actual;
  return allocatedRequests(c, cs, infeasible);
};

/** actuatedLimits is containerActuatedLimits. */
const actuatedLimits: ContainerList = (c, cs, infeasible) => {
  const actual = requirements(cs?.resources).limits;
  if (present(cs?.resources) && present(actual)) return actual;
  return infeasible ? undefined : specLimits(c, cs, infeasible);
};

/** isPodResizeInfeasible is IsPodResizeInfeasible: the first PodResizePending condition has reason Infeasible. */
function isPodResizeInfeasible(pod: PodJson): boolean {
  const pending = items(pod.status?.conditions)
    .map(record)
    .find((c) => c['type'] === 'PodResizePending');
  return pending !== undefined && pending['reason'] === 'Infeasible';
}

/** findContainerStatus is findContainerStatus: the first status of that name, among containers then init containers. */
function findContainerStatus(pod: PodJson, name: string): ContainerStatusJson | undefined {
  const statuses = [...items(pod.status?.containerStatuses), ...items(pod.status?.initContainerStatuses)];
  return statuses.map((s) => shape<ContainerStatusJson>(s)).find((s) => text(s.name) === name);
}

/**
 * aggregate is aggregateContainerResourcesByFn: the containers' sum, then the maximum with each init container's
 * list (plus the restartable init containers started before it), restartable (sidecar) init containers also summed.
 */
function aggregate(reader: PodReader, pick: ContainerList): ResourceList {
  const { pod } = reader;
  const infeasible = isPodResizeInfeasible(pod);
  const read = (c: ContainerJson): ResourceList => {
    const name = text(c.name);
    const where = `pod ${objectName(pod.metadata)} container ${JSON.stringify(name)}`;
    return readList(pick(c, findContainerStatus(pod, name), infeasible), where, reader.errors);
  };
  let result = items(pod.spec?.containers).reduce<ResourceList>((sum, c) => add(sum, read(shape(c))), {});
  let restartable: ResourceList = {};
  let init: ResourceList = {};
  for (const c of items(pod.spec?.initContainers).map((c) => shape<ContainerJson>(c))) {
    let list = read(c);
    if (c.restartPolicy === 'Always') {
      result = add(result, list);
      restartable = add(restartable, list);
      list = restartable;
    } else list = add(list, restartable);
    init = maxInto(init, list);
  }
  return maxInto(result, init);
}

/** isSupportedPodLevelResource is IsSupportedPodLevelResource: cpu, memory, hugepages-*. */
function isSupportedPodLevelResource(name: string): boolean {
  return name === 'cpu' || name === 'memory' || name.startsWith(HUGE_PAGES_PREFIX);
}

/** podLevel reads spec.resources' list (requests or limits). */
function podLevel(reader: PodReader, which: 'requests' | 'limits'): ResourceList {
  const where = `pod ${objectName(reader.pod.metadata)} spec.resources.${which}`;
  return readList(requirements(reader.pod.spec?.resources)[which], where, reader.errors);
}

/** applyPodLevelResources is applyPodLevelResources: the pod-level quantities of supported names replace the sum. */
function applyPodLevelResources(result: ResourceList, effective: ResourceList): ResourceList {
  const supported = Object.entries(effective).filter(([name]) => isSupportedPodLevelResource(name));
  return { ...result, ...Object.fromEntries(supported) };
}

/** overhead reads spec.overhead. */
function overhead(reader: PodReader): ResourceList {
  return readList(reader.pod.spec?.overhead, `pod ${objectName(reader.pod.metadata)} spec.overhead`, reader.errors);
}

/** podRequests is PodRequests: max(spec, actuated, allocated) of the containers, pod-level requests, overhead. */
export function podRequests(pod: PodJson, errors: string[]): ResourceList {
  const reader = { pod, errors };
  const allocated = aggregate(reader, allocatedRequests);
  const actuated = aggregate(reader, actuatedRequests);
  let reqs = isPodResizeInfeasible(pod)
    ? maxOf(actuated, allocated)
    : maxOf(aggregate(reader, specRequests), actuated, allocated);
  const podRequested = podLevel(reader, 'requests');
  if (Object.keys(podRequested).some(isSupportedPodLevelResource)) reqs = applyPodLevelResources(reqs, podRequested);
  return add(reqs, overhead(reader));
}

/** isPodLevelResourcesSet is IsPodLevelResourcesSet: spec.resources names a supported resource. */
export function isPodLevelResourcesSet(pod: PodJson, errors: string[]): boolean {
  const reader = { pod, errors };
  const names = [...Object.keys(podLevel(reader, 'requests')), ...Object.keys(podLevel(reader, 'limits'))];
  return names.some(isSupportedPodLevelResource);
}

/** podLevelRequirements reads spec.resources: its requests and limits. */
export function podLevelRequirements(pod: PodJson, errors: string[]): readonly [ResourceList, ResourceList] {
  const reader = { pod, errors };
  return [podLevel(reader, 'requests'), podLevel(reader, 'limits')];
}

/** podLimits is PodLimits: max(spec, actuated) of the containers, pod-level limits, overhead on non-zero limits. */
export function podLimits(pod: PodJson, errors: string[]): ResourceList {
  const reader = { pod, errors };
  const actuated = aggregate(reader, actuatedLimits);
  let limits = isPodResizeInfeasible(pod) ? actuated : maxOf(aggregate(reader, specLimits), actuated);
  if (isPodLevelResourcesSet(pod, errors)) limits = applyPodLevelResources(limits, podLevel(reader, 'limits'));
  const extra = Object.entries(overhead(reader)).filter(([name]) => {
    const limit: Quantity | undefined = Object.hasOwn(limits, name) ? limits[name] : undefined;
    return limit !== undefined && !isZeroQuantity(limit);
  });
  return add(limits, Object.fromEntries(extra));
}
