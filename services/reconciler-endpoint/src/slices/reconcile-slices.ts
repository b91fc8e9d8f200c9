import type { Pod, Service } from '@kcm-bus/k8s/core-v1.ts';
import { ENDPOINT_SLICES, type EndpointSlice } from '@kcm-bus/k8s/discovery-v1.ts';
import { deleteDraft, type MutationDraft, recordEventDraft } from '@kcm-bus/k8s/mutation-drafts.ts';
import type { Node } from '@kcm-bus/k8s/node-v1.ts';
import type { Lister } from '@kcm-bus/runtime/controller/index.ts';
import { objectKey } from '@kcm-bus/schemas/kinds.ts';
import { EVENT_SOURCE } from './endpointslice-controller.ts';
import { getAddressTypesForService } from './pod-to-endpoint.ts';
import { reconcileByAddressType } from './reconcile-address-type.ts';
import { serviceControllerKey } from './slice-meta.ts';
import { mergeMetrics, NO_METRICS, type SliceMetrics } from './slice-metrics.ts';
import { removeHints, type ServiceTopologyHints, type ZoneRatios } from './topology-cache.ts';

/** ReconcileSlicesInput is what Reconciler.Reconcile reads for one Service. */
export type ReconcileSlicesInput = {
  readonly service: Service;
  /** pods: the pods the Service's selector selects. */
  readonly pods: readonly Pod[];
  /** existingSlices: the Service's slices managed by the controller, those pending deletion left out. */
  readonly existingSlices: readonly EndpointSlice[];
  readonly nodes: Pick<Lister<Node>, 'get'>;
  /** triggerTime: the last-change trigger time in epoch ms (TriggerTimeTracker); undefined is Go's zero time. */
  readonly triggerTime: number | undefined;
  readonly maxEndpointsPerSlice: number;
  /** zoneRatios: the nodes' zone CPU ratios (zoneRatiosFromNodes), read only for topology-mode Auto. */
  readonly zoneRatios: ZoneRatios | undefined;
  /** topology: the Service's topology cache entry as the previous sync left it. */
  readonly topology: ServiceTopologyHints | undefined;
};

/**
 * ReconcileSlicesResult is a reconcile's decisions: the slices to create, update and delete and the events to
 * record about the Service (MutationDrafts, in upstream's order when published as creates, updates, deletes,
 * events), the errors of pods left out (the sync fails and is retried, as upstream's Reconcile returns them), the
 * Service's new topology cache entry, and the metric observations.
 */
export type ReconcileSlicesResult = {
  readonly creates: readonly MutationDraft[];
  readonly updates: readonly MutationDraft[];
  readonly deletes: readonly MutationDraft[];
  readonly events: readonly MutationDraft[];
  readonly errors: readonly string[];
  readonly topology: ServiceTopologyHints | undefined;
  readonly metrics: SliceMetrics;
};

/**
 * reconcileSlices mirrors Reconciler.Reconcile: slices of an address type the Service no longer has are deleted
 * (and their hints forgotten); each address type the Service has is reconciled (reconcileByAddressType).
 */
export function reconcileSlices(input: ReconcileSlicesInput): ReconcileSlicesResult {
  const { service } = input;
  const supported = getAddressTypesForService(service);
  const key = objectKey(service.metadata);
  let topology = input.topology;
  const unsupported = input.existingSlices.filter((s) => !supported.includes(s.addressType));
  for (const slice of unsupported)
    if (serviceControllerKey(slice) === key) topology = removeHints(topology, slice.addressType);
  const out = {
    creates: [] as MutationDraft[],
    updates: [] as MutationDraft[],
    deletes: [] as MutationDraft[],
    events: [] as MutationDraft[],
    errors: [] as string[],
  };
  let metrics = NO_METRICS;
  const involved = { apiVersion: 'v1', kind: 'Service', metadata: service.metadata };
  for (const addressType of supported) {
    const existing = input.existingSlices.filter((s) => s.addressType === addressType);
    const result = reconcileByAddressType({ ...input, existing, topology }, addressType);
    topology = result.topology;
    out.creates.push(...result.writes.creates);
    out.updates.push(...result.writes.updates);
    out.deletes.push(...result.writes.deletes);
    out.events.push(...result.events.map((e) => recordEventDraft(EVENT_SOURCE, involved, e.type, e.reason, e.message)));
    out.errors.push(...result.errors);
    metrics = mergeMetrics(metrics, result.metrics);
  }
  out.deletes.push(...unsupported.map((s) => deleteDraft(ENDPOINT_SLICES, s.metadata)));
  const changes = { ...metrics.changes, delete: metrics.changes.delete + unsupported.length };
  return { ...out, topology, metrics: { ...metrics, changes } };
}
