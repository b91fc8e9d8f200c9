/*
 * The pod's QoS class as the BestEffort scopes read it: qos.GetPodQOS (pkg/apis/core/v1/helper/qos/qos.go) at
 * v1.37.2's default gates: PodLevelResources (beta, on) and PodLevelResourcesFixKubeletQOSClass (beta, on), so
 * pod-level resources decide the class when they name cpu, memory or hugepages.
 */
import { cmpQuantity, isZeroQuantity, quantityOf } from '@kcm-bus/k8s/quantity.ts';
import type { ResourceList } from '@kcm-bus/k8s/quota-resources.ts';
import { items, objectName, shape, text, type ContainerJson, type PodJson } from './json.ts';
import { isPodLevelResourcesSet, podLevelRequirements } from './pod-resources.ts';
import { readList } from './quantities.ts';

type QOSClass = 'BestEffort' | 'Burstable' | 'Guaranteed';

const ZERO = quantityOf(0, 'DecimalSI');
const QOS_RESOURCES = ['cpu', 'memory'];

/** resourceQOS is resourceQOS: Burstable when request and limit differ, else BestEffort when zero, else Guaranteed. */
function resourceQOS(requests: ResourceList, limits: ResourceList, name: string): QOSClass {
  const request = Object.hasOwn(requests, name) ? requests[name]! : ZERO;
  const limit = Object.hasOwn(limits, name) ? limits[name]! : ZERO;
  if (cmpQuantity(request, limit) !== 0) return 'Burstable';
  return isZeroQuantity(request) ? 'BestEffort' : 'Guaranteed';
}

/** requirementsQOS is requirementsQOS: BestEffort without requests and limits; else cpu's and memory's class if alike. */
function requirementsQOS(requests: ResourceList, limits: ResourceList): QOSClass {
  if (Object.keys(requests).length === 0 && Object.keys(limits).length === 0) return 'BestEffort';
  const classes = QOS_RESOURCES.map((name) => resourceQOS(requests, limits, name));
  return classes.every((c) => c === classes[0]) ? classes[0]! : 'Burstable';
}

/** computePodQOS is ComputePodQOS: the pod-level class, else the init and regular containers' classes combined. */
function computePodQOS(pod: PodJson, errors: string[]): QOSClass {
  if (isPodLevelResourcesSet(pod, errors)) return requirementsQOS(...podLevelRequirements(pod, errors));
  const containers = [...items(pod.spec?.initContainers), ...items(pod.spec?.containers)];
  const classes = containers.map((c) => {
    const container = shape<ContainerJson>(c);
    const resources = shape<{ requests?: unknown; limits?: unknown }>(container.resources);
    const where = `pod ${objectName(pod.metadata)} container ${JSON.stringify(text(container.name))}`;
    return requirementsQOS(readList(resources.requests, where, errors), readList(resources.limits, where, errors));
  });
  if (classes.includes('Burstable')) return 'Burstable';
  if (classes.length === 0) return 'BestEffort';
  return classes.every((c) => c === classes[0]) ? classes[0]! : 'Burstable';
}

/** isBestEffort is pods.go's isBestEffort: GetPodQOS (status.qosClass when set, else computed) is BestEffort. */
export function isBestEffort(pod: PodJson): boolean {
  const recorded = text(pod.status?.qosClass);
  return (recorded !== '' ? recorded : computePodQOS(pod, [])) === 'BestEffort';
}
