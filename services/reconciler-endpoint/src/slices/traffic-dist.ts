import type { Endpoint, EndpointHints, EndpointSlice } from '@kcm-bus/k8s/discovery-v1.ts';
import { endpointReady, withoutHints } from './endpoint-set.ts';

/** TrafficDistributionSlices are the slices trafficdist.ReconcileHints sorts: to create, to update, unchanged. */
export type TrafficDistributionSlices = {
  readonly toCreate: readonly EndpointSlice[];
  readonly toUpdate: readonly EndpointSlice[];
  readonly unchanged: readonly EndpointSlice[];
};

/** Heuristic mirrors trafficdist's heuristic: whether a slice's hints are wrong, and the endpoint with the right ones. */
type Heuristic = {
  readonly needsUpdate: (slice: EndpointSlice) => boolean;
  readonly update: (endpoint: Endpoint) => Endpoint;
};

/**
 * reconcileHints mirrors trafficdist.ReconcileHints: with trafficDistribution PreferClose or PreferSameZone every
 * ready endpoint is hinted for its own zone (PreferSameNode: and its own node); with any other value, or none,
 * every hint is removed. An unchanged slice whose hints are not what the heuristic wants becomes an update.
 */
export function reconcileHints(
  trafficDistribution: string | undefined,
  slices: TrafficDistributionSlices,
): TrafficDistributionSlices {
  const closeValues = ['PreferClose', 'PreferSameZone', 'PreferSameNode'];
  const h =
    trafficDistribution !== undefined && closeValues.includes(trafficDistribution)
      ? preferClose(trafficDistribution === 'PreferSameNode')
      : DEFAULT_HEURISTIC;
  const stale = slices.unchanged.filter(h.needsUpdate);
  const update = (slice: EndpointSlice): EndpointSlice => ({
    ...slice,
    endpoints: (slice.endpoints ?? []).map(h.update),
  });
  return {
    toCreate: slices.toCreate.map(update),
    toUpdate: [...slices.toUpdate, ...stale].map(update),
    unchanged: slices.unchanged.filter((s) => !stale.includes(s)),
  };
}

/** DEFAULT_HEURISTIC mirrors defaultHeuristic (cluster-wide routing): a slice with any hint needs them all removed. */
const DEFAULT_HEURISTIC: Heuristic = {
  needsUpdate: (slice) => (slice.endpoints ?? []).some((e) => e.hints !== undefined),
  update: withoutHints,
};

/**
 * preferClose mirrors preferCloseHeuristic: a ready endpoint wants a hint for its zone when it has one, and for its
 * node when generateNodeHints (PreferSameNode) and it has one; no stale hint otherwise. Not-ready endpoints are left
 * as they are.
 */
function preferClose(generateNodeHints: boolean): Heuristic {
  const wanted = (e: Endpoint): EndpointHints | undefined => {
    const forZones = e.zone !== undefined ? [{ name: e.zone }] : undefined;
    const forNodes = e.nodeName !== undefined && generateNodeHints ? [{ name: e.nodeName }] : undefined;
    return forZones === undefined && forNodes === undefined
      ? undefined
      : { ...(forZones ? { forZones } : {}), ...(forNodes ? { forNodes } : {}) };
  };
  const wrong = (e: Endpoint): boolean => {
    const [zones, nodes] = [e.hints?.forZones ?? [], e.hints?.forNodes ?? []];
    const zoneWrong = e.zone !== undefined ? zones.length !== 1 || zones[0]!.name !== e.zone : zones.length > 0;
    const nodeWrong =
      e.nodeName !== undefined && generateNodeHints
        ? nodes.length !== 1 || nodes[0]!.name !== e.nodeName
        : nodes.length > 0;
    return zoneWrong || nodeWrong;
  };
  return {
    needsUpdate: (slice) => (slice.endpoints ?? []).some((e) => endpointReady(e) && wrong(e)),
    update: (e) => {
      if (!endpointReady(e)) return e;
      const hints = wanted(e);
      return hints === undefined ? withoutHints(e) : { ...e, hints };
    },
  };
}
