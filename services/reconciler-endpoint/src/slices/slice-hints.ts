import type { Service } from '@kcm-bus/k8s/core-v1.ts';
import type { AddressType, EndpointSlice } from '@kcm-bus/k8s/discovery-v1.ts';
import { objectKey } from '@kcm-bus/schemas/kinds.ts';
import { PREFER_SAME_TRAFFIC_DISTRIBUTION } from './endpointslice-controller.ts';
import { hintsEnabled } from './slice-meta.ts';
import {
  disabledEvent,
  formatWithAddressType,
  removeHints,
  type ServiceTopologyHints,
  TOPOLOGY_MESSAGES,
  type TopologyEvent,
  type ZoneRatios,
} from './topology-cache.ts';
import { addHints, type HintedSlices, removeHintsFromSlices } from './topology-hints.ts';
import { reconcileHints } from './traffic-dist.ts';

/** HintsInput is what the hints step reads: the Service, its existing slices of the type, the zone ratios, its cache entry. */
export type HintsInput = {
  readonly service: Service;
  readonly existing: readonly EndpointSlice[];
  readonly zoneRatios: ZoneRatios | undefined;
  readonly topology: ServiceTopologyHints | undefined;
};

/** HintsOutcome is the hints step's answer: the slices, the events, the Service's cache entry and the metric labels. */
export type HintsOutcome = HintedSlices & {
  readonly events: readonly TopologyEvent[];
  readonly topology: ServiceTopologyHints | undefined;
  readonly topologyLabel: 'Auto' | 'Disabled';
  readonly trafficDistribution: string | undefined;
};

/**
 * validTrafficDistribution mirrors Reconciler.validTrafficDistribution: PreferClose, or PreferSameZone and
 * PreferSameNode while PreferSameTrafficDistribution is on (GA and locked in v1.37).
 */
export function validTrafficDistribution(trafficDistribution: string | undefined): boolean {
  if (trafficDistribution === 'PreferClose') return true;
  return (
    PREFER_SAME_TRAFFIC_DISTRIBUTION &&
    (trafficDistribution === 'PreferSameZone' || trafficDistribution === 'PreferSameNode')
  );
}

/**
 * applyHints is the hints part of Reconciler.reconcileByAddressType: topology-mode Auto (which wins over
 * trafficDistribution) allocates hints by zone CPU (addHints); otherwise hints once populated are forgotten, with a
 * TopologyAwareHintsDisabled warning, and removed from the slices unless a valid trafficDistribution is set, which
 * then sets them (trafficdist.ReconcileHints).
 */
export function applyHints(
  input: HintsInput,
  addressType: AddressType,
  slices: HintedSlices,
  toDelete: readonly EndpointSlice[],
): HintsOutcome {
  const { service, existing } = input;
  const auto = hintsEnabled(service.metadata.annotations);
  const trafficDistribution = service.spec?.trafficDistribution;
  const useTrafficDistribution = validTrafficDistribution(trafficDistribution) && !auto;
  const si = {
    serviceKey: objectKey(service.metadata),
    addressType,
    ...slices,
    unchanged: unchangedSlices(existing, slices.toUpdate, toDelete),
  };
  const labels = {
    topologyLabel: auto ? 'Auto' : 'Disabled',
    trafficDistribution: useTrafficDistribution ? trafficDistribution : undefined,
  } as const;
  if (auto) {
    const added = addHints(si, input.zoneRatios, input.topology);
    return {
      toCreate: added.toCreate,
      toUpdate: added.toUpdate,
      events: added.events,
      topology: added.state,
      ...labels,
    };
  }
  const events =
    input.topology?.populated === true
      ? [disabledEvent(formatWithAddressType(TOPOLOGY_MESSAGES.disabled, addressType))]
      : [];
  const topology = removeHints(input.topology, addressType);
  if (!useTrafficDistribution) return { ...removeHintsFromSlices(si), events, topology, ...labels };
  const hinted = reconcileHints(trafficDistribution, si);
  return { toCreate: hinted.toCreate, toUpdate: hinted.toUpdate, events, topology, ...labels };
}

/** unchangedSlices mirrors reconciler.go unchangedSlices: the existing slices neither updated nor deleted (by name). */
export function unchangedSlices(
  existing: readonly EndpointSlice[],
  toUpdate: readonly EndpointSlice[],
  toDelete: readonly EndpointSlice[],
): EndpointSlice[] {
  const changed = new Set([...toUpdate, ...toDelete].map((s) => s.metadata.name));
  return existing.filter((s) => !changed.has(s.metadata.name));
}
