import type { EndpointAddress, EndpointSubset } from '@kcm-bus/k8s/core-v1.ts';
import { ANNOTATION_OVER_CAPACITY, MAX_CAPACITY } from './endpoints-controller.ts';

const count = (
  subsets: readonly EndpointSubset[],
  pick: (s: EndpointSubset) => readonly EndpointAddress[] | undefined,
): number => subsets.reduce((n, s) => n + (pick(s) ?? []).length, 0);

/**
 * truncateEndpoints mirrors endpoints_controller.go truncateEndpoints: undefined when the subsets hold at most
 * MAX_CAPACITY addresses; else the subsets cut to MAX_CAPACITY. Ready addresses go first: past MAX_CAPACITY ready,
 * every not-ready address is dropped and the ready ones are shared across subsets in proportion (rounded up, capped
 * by what is left); else all ready stay and the remaining room is shared among the not-ready ones that way.
 */
export function truncateEndpoints(subsets: readonly EndpointSubset[]): EndpointSubset[] | undefined {
  const totalReady = count(subsets, (s) => s.addresses);
  const totalNotReady = count(subsets, (s) => s.notReadyAddresses);
  if (totalReady + totalNotReady <= MAX_CAPACITY) return undefined;
  const truncateReady = totalReady > MAX_CAPACITY;
  const max = truncateReady ? MAX_CAPACITY : MAX_CAPACITY - totalReady;
  const numTotal = truncateReady ? totalReady : totalNotReady;
  let canBeAdded = max;
  return subsets.map((subset) => {
    const list = (truncateReady ? subset.addresses : subset.notReadyAddresses) ?? [];
    const toBeAdded = Math.min(Math.ceil((list.length / numTotal) * max), canBeAdded);
    const kept = list.slice(0, toBeAdded);
    canBeAdded -= kept.length;
    return truncateReady
      ? { ...subset, addresses: kept, notReadyAddresses: [] }
      : { ...subset, notReadyAddresses: kept };
  });
}

/**
 * capacityAnnotationSetCorrectly mirrors endpoints_controller.go: the stored subsets hold at most MAX_CAPACITY
 * addresses and no over-capacity annotation (an over-capacity object is therefore always rewritten).
 */
export function capacityAnnotationSetCorrectly(
  annotations: Readonly<Record<string, string>> | undefined,
  subsets: readonly EndpointSubset[],
): boolean {
  if (count(subsets, (s) => s.addresses) + count(subsets, (s) => s.notReadyAddresses) > MAX_CAPACITY) return false;
  return annotations?.[ANNOTATION_OVER_CAPACITY] === undefined;
}
