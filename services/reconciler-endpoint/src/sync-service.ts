import type { Endpoints, EndpointSubset, Pod, Service } from '@kcm-bus/k8s/core-v1.ts';
import { supersetMatcher } from '@kcm-bus/k8s/labels.ts';
import { rfc3339Nano } from '@kcm-bus/k8s/meta-v1.ts';
import { createDraft, deleteDraft, type MutationLog, mutationLog, updateDraft } from '@kcm-bus/k8s/mutation-drafts.ts';
import type { ReconcileInput, Lister, Decision } from '@kcm-bus/runtime/controller/index.ts';
import { NAMESPACE_INDEX } from '@kcm-bus/runtime/store/index.ts';
import {
  ANNOTATION_OVER_CAPACITY,
  ANNOTATION_TRIGGER_TIME,
  CONTROLLER_NAME,
  ENDPOINTS,
  EVENT_SOURCE,
  LABEL_HEADLESS,
  LABEL_MANAGED_BY,
} from './endpoints-controller.ts';
import { endpointSubsetsEqualIgnoreResourceVersion, labelsCorrectForEndpoints } from './endpoints-equal.ts';
import { recordWriteFailures } from './write-failures.ts';
import { repackSubsets } from './repack-subsets.ts';
import { serviceSubsets } from './service-subsets.ts';
import type { TriggerTimeTracker } from './trigger-time-tracker.ts';
import { capacityAnnotationSetCorrectly, truncateEndpoints } from './truncate-endpoints.ts';

/** EndpointsListers are the stores syncService reads: Services, pods and Endpoints, co-partitioned by namespace. */
export type EndpointsListers = {
  readonly services: Lister<Service>;
  readonly pods: Lister<Pod>;
  readonly endpoints: Lister<Endpoints>;
};

/** SyncInput is what one sync reads: the runtime's input, the listers, and the member's trigger-time tracker. */
export type SyncInput = ReconcileInput & EndpointsListers & { readonly tracker: TriggerTimeTracker };

/**
 * syncService mirrors endpoints_controller.go syncService for the Service `key`: its Endpoints deleted when the
 * Service is gone; nothing for an ExternalName Service or one without a selector (user-managed Endpoints); else
 * the Endpoints computed from the selected pods and written only when they differ from the stored ones (subsets
 * ignoring target resourceVersions, labels, the capacity annotation): Create when there is none, else Update
 * guarded by the stored resourceVersion. The previous round's failed writes are reported first, as the events
 * upstream records for the failed call, and end the sync with its error (the retry waits the backoff, and after a
 * Conflict a fresh read).
 */
export function syncService(key: string, input: SyncInput): Decision {
  const log = mutationLog(CONTROLLER_NAME, key, input.cause, input.now, input.attempt);
  const error = recordWriteFailures(log, input.failures, input.endpoints);
  if (error !== undefined)
    return { mutations: log.mutations(), error, ...(conflicted(input.failures) ? { freshRead: true } : {}) };
  const service = input.services.get(key);
  const current = input.endpoints.get(key);
  if (service === undefined) {
    input.tracker.deleteService(key);
    if (current !== undefined) log.push(deleteDraft(ENDPOINTS, current.metadata));
    return { mutations: log.mutations() };
  }
  const selector = service.spec?.selector;
  if (service.spec?.type === 'ExternalName' || selector == null) return { mutations: log.mutations() };
  const selects = supersetMatcher(selector);
  const pods = input.pods
    .byIndex(NAMESPACE_INDEX, service.metadata.namespace ?? '')
    .filter((p) => selects(p.metadata.labels));
  const triggerTime = input.tracker.computeEndpointLastChangeTriggerTime(key, service, pods);
  const subsets = serviceSubsets(service, pods);
  if (current === undefined || !unchanged(current, subsets, service))
    writeEndpoints(log, service, current, subsets, triggerTime);
  return { mutations: log.mutations() };
}

/** conflicted: a write met a stale resourceVersion, so the retry must read the Endpoints fresh (upstream: the informer has synced past it by the rate-limited retry). */
function conflicted(failures: SyncInput['failures']): boolean {
  return failures.some((r) => r.outcome === 'Conflict');
}

/** unchanged is syncService's skip test: same subsets (as stored or repacked), right labels, capacity annotation right. */
function unchanged(current: Endpoints, subsets: readonly EndpointSubset[], service: Service): boolean {
  const stored = current.subsets ?? [];
  return (
    (endpointSubsetsEqualIgnoreResourceVersion(stored, subsets) ||
      endpointSubsetsEqualIgnoreResourceVersion(repackSubsets(stored), subsets)) &&
    labelsCorrectForEndpoints(current.metadata.labels, service.metadata.labels) &&
    capacityAnnotationSetCorrectly(current.metadata.annotations, stored)
  );
}

/**
 * writeEndpoints builds newEndpoints as syncService does (the stored object, or a new one named after the Service,
 * with the subsets truncated to capacity, the trigger-time and over-capacity annotations set or removed, the
 * Service's labels plus headless and managed-by) and pushes its Create or Update.
 */
function writeEndpoints(
  log: MutationLog,
  service: Service,
  current: Endpoints | undefined,
  subsets: EndpointSubset[],
  triggerTime: number | undefined,
): void {
  const annotations: Record<string, string> = { ...current?.metadata.annotations };
  if (triggerTime !== undefined) annotations[ANNOTATION_TRIGGER_TIME] = rfc3339Nano(new Date(triggerTime));
  else delete annotations[ANNOTATION_TRIGGER_TIME];
  const truncated = truncateEndpoints(subsets);
  if (truncated !== undefined) annotations[ANNOTATION_OVER_CAPACITY] = 'truncated';
  else delete annotations[ANNOTATION_OVER_CAPACITY];
  const labels: Record<string, string> = { ...service.metadata.labels };
  const clusterIP = service.spec?.clusterIP ?? '';
  if (clusterIP === '' || clusterIP === 'None') labels[LABEL_HEADLESS] = '';
  else delete labels[LABEL_HEADLESS];
  labels[LABEL_MANAGED_BY] = EVENT_SOURCE;
  const finalSubsets = truncated ?? subsets;
  const { annotations: _a, labels: _l, ...meta } = current?.metadata ?? { name: service.metadata.name };
  const metadata = { ...meta, labels, ...(Object.keys(annotations).length > 0 ? { annotations } : {}) };
  const { subsets: _s, ...rest } = current ?? { apiVersion: ENDPOINTS.apiVersion, kind: ENDPOINTS.kind };
  const body = { ...rest, metadata, ...(finalSubsets.length > 0 ? { subsets: finalSubsets } : {}) };
  log.push(
    current === undefined
      ? createDraft(ENDPOINTS, service.metadata.namespace, body)
      : updateDraft(ENDPOINTS, body as Endpoints),
  );
}
