import type { EndpointAddress, EndpointPort, EndpointSubset } from '@kcm-bus/k8s/core-v1.ts';
import { dumpPort, dumpSubset, fnv128a } from './dump-for-hash.ts';

type AddressSet = Map<EndpointAddress, boolean>;
type PortAddresses = { readonly port: EndpointPort | undefined; readonly addresses: AddressSet };

/**
 * repackSubsets mirrors endpoints.RepackSubsets (pkg/api/v1/endpoints): the canonical form of a list of subsets.
 * Each distinct port gets the set of addresses (deduplicated by IP and target UID; not ready wins over ready) that
 * serve it; ports with the same set share a subset; addresses without ports keep a subset of their own unless a
 * port has the same set. Sorted as SortSubsets does.
 */
export function repackSubsets(subsets: readonly EndpointSubset[]): EndpointSubset[] {
  const all = new Map<string, EndpointAddress>();
  const byPort = new Map<string, PortAddresses>();
  for (const subset of subsets) {
    const ports = subset.ports ?? [];
    if (ports.length === 0) mapAddressesByPort(subset, undefined, all, byPort);
    for (const port of ports) mapAddressesByPort(subset, port, all, byPort);
  }
  const groups = new Map<string, { addresses: AddressSet; ports: EndpointPort[] | undefined }>();
  for (const { port, addresses } of byPort.values()) {
    const key = addressSetKey(addresses);
    const group = groups.get(key) ?? { addresses, ports: undefined };
    if (port !== undefined) group.ports = [...(group.ports ?? []), port];
    groups.set(key, group);
  }
  return sortSubsets([...groups.values()].map(({ addresses, ports }) => subsetOf(addresses, ports)));
}

function mapAddressesByPort(
  subset: EndpointSubset,
  port: EndpointPort | undefined,
  all: Map<string, EndpointAddress>,
  byPort: Map<string, PortAddresses>,
): void {
  const portKey =
    port === undefined
      ? ''
      : JSON.stringify([port.name ?? '', port.port, port.protocol ?? '', port.appProtocol ?? null]);
  const entry = byPort.get(portKey) ?? { port, addresses: new Map() };
  byPort.set(portKey, entry);
  const add = (address: EndpointAddress, ready: boolean): void => {
    const key = `${address.ip}\u0000${address.targetRef?.uid ?? ''}`;
    const existing = all.get(key) ?? address;
    all.set(key, existing);
    if (entry.addresses.get(existing) !== false) entry.addresses.set(existing, ready);
  };
  for (const address of subset.addresses ?? []) add(address, true);
  for (const address of subset.notReadyAddresses ?? []) add(address, false);
}

function addressSetKey(addresses: AddressSet): string {
  const entries = [...addresses].sort(([a], [b]) => compareAddresses(a, b));
  return JSON.stringify(entries.map(([a, ready]) => [a.ip, a.targetRef?.uid ?? null, ready]));
}

function subsetOf(addresses: AddressSet, ports: EndpointPort[] | undefined): EndpointSubset {
  const ready = [...addresses].filter(([, r]) => r).map(([a]) => a);
  const notReady = [...addresses].filter(([, r]) => !r).map(([a]) => a);
  return {
    ...(ready.length > 0 ? { addresses: ready } : {}),
    ...(notReady.length > 0 ? { notReadyAddresses: notReady } : {}),
    ...(ports !== undefined ? { ports } : {}),
  };
}

/** sortSubsets mirrors endpoints.SortSubsets: addresses by IP then UID, ports and subsets by the hash of their dump. */
export function sortSubsets(subsets: readonly EndpointSubset[]): EndpointSubset[] {
  const sorted = subsets.map((s) => ({
    ...s,
    ...(s.addresses ? { addresses: [...s.addresses].sort(compareAddresses) } : {}),
    ...(s.notReadyAddresses ? { notReadyAddresses: [...s.notReadyAddresses].sort(compareAddresses) } : {}),
    ...(s.ports ? { ports: byHash(s.ports, dumpPort) } : {}),
  }));
  return byHash(sorted, dumpSubset);
}

function byHash<T>(items: readonly T[], dump: (item: T) => string): T[] {
  if (items.length < 2) return [...items];
  return items
    .map((item) => ({ item, hash: fnv128a(dump(item)) }))
    .sort((a, b) => (a.hash < b.hash ? -1 : a.hash > b.hash ? 1 : 0))
    .map((x) => x.item);
}

/** compareAddresses orders as LessEndpointAddress: IP as bytes, then no targetRef first, then the target's UID. */
export function compareAddresses(a: EndpointAddress, b: EndpointAddress): number {
  if (a.ip !== b.ip) return a.ip < b.ip ? -1 : 1;
  if (a.targetRef === undefined || b.targetRef === undefined)
    return a.targetRef === b.targetRef ? 0 : a.targetRef === undefined ? -1 : 1;
  const [ua, ub] = [a.targetRef.uid ?? '', b.targetRef.uid ?? ''];
  return ua < ub ? -1 : ua > ub ? 1 : 0;
}
