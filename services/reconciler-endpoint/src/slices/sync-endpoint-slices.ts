import type { Node } from '@kcm-bus/k8s/node-v1.ts';
import type { Pod, Service } from '@kcm-bus/k8s/core-v1.ts';
import { type EndpointSlice, LABEL_MANAGED_BY } from '@kcm-bus/k8s/discovery-v1.ts';
import { supersetMatcher } from '@kcm-bus/k8s/labels.ts';
import { isTerminating } from '@kcm-bus/k8s/meta-v1.ts';
import { type MutationLog, mutationLog, recordEventDraft } from '@kcm-bus/k8s/mutation-drafts.ts';
import type { ReconcileInput, Lister, Decision } from '@kcm-bus/runtime/controller/index.ts';
import { NAMESPACE_INDEX } from '@kcm-bus/runtime/store/index.ts';
import type { TriggerTimeTracker } from '../trigger-time-tracker.ts';
import { CONTROLLER_NAME, EVENT_SOURCE, MANAGED_BY, SERVICE_NAME_INDEX } from './endpointslice-controller.ts';
import { reconcileSlices } from './reconcile-slices.ts';
import { hintsEnabled } from './slice-meta.ts';
import { NO_METRICS, type SliceMetrics } from './slice-metrics.ts';
import { aggregateError, failedToUpdateMessage, sliceWriteFailure } from './slice-write-failures.ts';
import { type ServiceTopologyHints, zoneRatiosFromNodes } from './topology-cache.ts';

/**
 * SliceListers are the stores syncService reads: Services, pods and EndpointSlices co-partitioned by namespace
 * (pods indexed by namespace, slices by SERVICE_NAME_INDEX), and every node (a global input).
 */
export type SliceListers = {
  readonly services: Lister<Service>;
  readonly pods: Lister<Pod>;
  readonly endpointSlices: Lister<EndpointSlice>;
  readonly nodes: Lister<Node>;
};

/**
 * SliceSyncInput is what one sync reads: the runtime's input, the listers, the member's memory (the trigger-time
 * tracker, this Service's topology cache entry) and --max-endpoints-per-slice.
 */
export type SliceSyncInput = ReconcileInput &
  SliceListers & {
    readonly tracker: TriggerTimeTracker;
    readonly topology: ServiceTopologyHints | undefined;
    readonly maxEndpointsPerSlice: number;
  };

/**
 * SliceSyncResult is the sync's Decision with the metric observations, the Service's topology cache entry to
 * keep (undefined: drop it) and whether the Service is gone (the metrics cache drops it, Reconciler.DeleteService).
 */
export type SliceSyncResult = Decision & {
  readonly metrics: SliceMetrics;
  readonly topology: ServiceTopologyHints | undefined;
  readonly serviceDeleted: boolean;
};

/**
 * syncEndpointSlices mirrors endpointslice_controller.go syncService for the Service `key`. A Service gone writes
 * nothing: its slices carry an owner reference to it and the garbage collector deletes them, as upstream (which
 * forgets the Service's trigger times and metrics, and leaves its topology cache entry as it was). An ExternalName
 * Service, or one without selector (its slices are the user's), is left alone. Else the pods its selector selects
 * and its slices (service-name label, managed-by this controller, not being deleted) are reconciled; pods left out
 * for an unknown node make the sync fail with a FailedToUpdateEndpointSlices warning, after its writes. The
 * previous sync's failed write is reported the same way first and ends the sync (retried after the backoff, after
 * a Conflict on a fresh read).
 */
export function syncEndpointSlices(key: string, input: SliceSyncInput): SliceSyncResult {
  const log = mutationLog(CONTROLLER_NAME, key, input.cause, input.now, input.attempt);
  const service = input.services.get(key);
  const unchanged = { metrics: NO_METRICS, topology: input.topology, serviceDeleted: false };
  if (service === undefined) {
    input.tracker.deleteService(key);
    return { mutations: [], ...unchanged, serviceDeleted: true };
  }
  const failure = sliceWriteFailure(input.failures, service);
  if (failure !== undefined) {
    failedToUpdate(log, service, failure);
    const conflict = input.failures.some((r) => r.outcome === 'Conflict');
    return { mutations: log.mutations(), error: failure, ...(conflict ? { freshRead: true } : {}), ...unchanged };
  }
  const selector = service.spec?.selector;
  if (service.spec?.type === 'ExternalName' || selector == null) return { mutations: [], ...unchanged };
  const namespace = service.metadata.namespace ?? '';
  const selects = supersetMatcher(selector);
  const pods = input.pods.byIndex(NAMESPACE_INDEX, namespace).filter((p) => selects(p.metadata.labels));
  const existingSlices = input.endpointSlices
    .byIndex(SERVICE_NAME_INDEX, `${namespace}/${service.metadata.name}`)
    .filter((s) => s.metadata.labels?.[LABEL_MANAGED_BY] === MANAGED_BY && !isTerminating(s.metadata));
  const triggerTime = input.tracker.computeEndpointLastChangeTriggerTime(key, service, pods);
  const zoneRatios = hintsEnabled(service.metadata.annotations) ? zoneRatiosFromNodes(input.nodes.list()) : undefined;
  const { nodes, maxEndpointsPerSlice, topology } = input;
  const result = reconcileSlices({
    service,
    pods,
    existingSlices,
    nodes,
    triggerTime,
    maxEndpointsPerSlice,
    zoneRatios,
    topology,
  });
  for (const draft of [...result.creates, ...result.updates, ...result.deletes, ...result.events]) log.push(draft);
  const error = aggregateError(result.errors);
  if (error !== undefined) failedToUpdate(log, service, error);
  return {
    mutations: log.mutations(),
    ...(error !== undefined ? { error } : {}),
    metrics: result.metrics,
    topology: result.topology,
    serviceDeleted: false,
  };
}

/** failedToUpdate records syncService's Warning FailedToUpdateEndpointSlices about the Service. */
function failedToUpdate(log: MutationLog, service: Service, error: string): void {
  const involved = { apiVersion: 'v1', kind: 'Service', metadata: service.metadata };
  log.push(
    recordEventDraft(
      EVENT_SOURCE,
      involved,
      'Warning',
      'FailedToUpdateEndpointSlices',
      failedToUpdateMessage(service, error),
    ),
  );
}
