import type { Endpoint } from '@kcm-bus/k8s/discovery-v1.ts';
import { endpointReady } from './endpoint-set.ts';
import type { Allocation } from './topology-cache.ts';

/** SliceEndpoints is a slice's endpoints as a hints step holds them: its own copy, whose entries it may replace. */
type SliceEndpoints = { readonly endpoints: Endpoint[] };

/**
 * getGivingAndReceivingZones mirrors topologycache/utils.go getGivingAndReceivingZones: how many endpoints each
 * zone above its desired allocation gives and each zone below receives, one at a time from the zone with the most
 * to give to the zone with the most need, until neither has a whole endpoint or either has less than half.
 */
export function getGivingAndReceivingZones(
  allocations: ReadonlyMap<string, Allocation>,
  allocated: ReadonlyMap<string, number>,
): { readonly giving: Map<string, number>; readonly receiving: Map<string, number> } {
  const givingDesired = new Map<string, number>();
  const receivingDesired = new Map<string, number>();
  for (const [zone, { desired }] of allocations) {
    const have = allocated.get(zone) ?? 0;
    if (have > desired) givingDesired.set(zone, have - desired);
    else if (have < desired) receivingDesired.set(zone, desired - have);
  }
  const giving = new Map<string, number>();
  const receiving = new Map<string, number>();
  for (;;) {
    const [from, toGive] = getMost(givingDesired);
    const [to, toReceive] = getMost(receivingDesired);
    if (from === '' || to === '' || (toGive < 1 && toReceive < 1) || toGive < 0.5 || toReceive < 0.5) break;
    giving.set(from, (giving.get(from) ?? 0) + 1);
    givingDesired.set(from, toGive - 1);
    receiving.set(to, (receiving.get(to) ?? 0) + 1);
    receivingDesired.set(to, toReceive - 1);
  }
  return { giving, receiving };
}

/** getMost mirrors utils.go getMost: the zone with the greatest positive value (the first met on a tie), or "" and 0. */
function getMost(zones: ReadonlyMap<string, number>): [string, number] {
  let most: [string, number] = ['', 0];
  for (const [zone, n] of zones) if (n > most[1]) most = [zone, n];
  return most;
}

/**
 * redistributeHints mirrors topologycache/utils.go redistributeHints: walking the slices' ready endpoints, an
 * endpoint of a giving zone is re-hinted for the first receiving zone still short, until no zone gives or receives;
 * the hints are replaced in the slices given, and the change of each zone's count is returned.
 */
export function redistributeHints(
  slices: readonly SliceEndpoints[],
  giving: Map<string, number>,
  receiving: Map<string, number>,
): Map<string, number> {
  const changes = new Map<string, number>();
  const add = (zone: string, n: number): void => void changes.set(zone, (changes.get(zone) ?? 0) + n);
  for (const slice of slices) {
    for (const [i, endpoint] of slice.endpoints.entries()) {
      if (!endpointReady(endpoint)) continue;
      if (giving.size === 0 || receiving.size === 0) return changes;
      const from = endpoint.zone ?? '';
      if (from === '' || (giving.get(from) ?? 0) <= 0) continue;
      const to = [...receiving].find(([, n]) => n > 0)?.[0];
      if (to === undefined) continue;
      slice.endpoints[i] = { ...endpoint, hints: { forZones: [{ name: to }] } };
      decrement(giving, from);
      decrement(receiving, to);
      add(to, 1);
      add(from, -1);
    }
  }
  return changes;
}

/** decrement takes one from a zone's count, removing the zone at its last. */
function decrement(zones: Map<string, number>, zone: string): void {
  const n = zones.get(zone)!;
  if (n === 1) zones.delete(zone);
  else zones.set(zone, n - 1);
}
