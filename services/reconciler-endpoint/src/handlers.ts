import type { Endpoints, Pod, Service } from '@kcm-bus/k8s/core-v1.ts';
import { jsonEqual } from '@kcm-bus/k8s/json-equal.ts';
import { labelsSuperset } from '@kcm-bus/k8s/labels.ts';
import { isPodReady } from '@kcm-bus/k8s/pod-util.ts';
import type { HandlerOutput, ObjectEvent, Lister } from '@kcm-bus/runtime/controller/index.ts';
import { NAMESPACE_INDEX } from '@kcm-bus/runtime/store/index.ts';
import { objectKey } from '@kcm-bus/schemas/kinds.ts';
import { ANNOTATION_LEADER } from './endpoints-controller.ts';

type Labels = Readonly<Record<string, string>>;

/**
 * PodProjectionKey mirrors endpointslice util.PodProjectionKey: what a pod event tells about Service membership.
 * oldLabels is set when the labels (or hostname/subdomain) changed and the old labels were not nil.
 */
export type PodProjectionKey = {
  readonly namespace: string;
  readonly labels: Labels | undefined;
  readonly oldLabels?: Labels;
  readonly podChanged: boolean;
};

/**
 * getPodUpdateProjectionKey mirrors util.GetPodUpdateProjectionKey (onPodUpdate's add, update and delete): an add
 * or a delete projects the pod's labels; an update with the same resourceVersion, or one changing nothing the
 * Endpoints show, projects nothing.
 */
export function getPodUpdateProjectionKey(event: ObjectEvent<Pod>): PodProjectionKey | undefined {
  const pod = event.object;
  const namespace = pod.metadata.namespace ?? '';
  if (event.type === 'Deleted' || event.old === undefined)
    return { namespace, labels: pod.metadata.labels, podChanged: false };
  const old = event.old;
  if (old.metadata.resourceVersion === pod.metadata.resourceVersion) return undefined;
  const { podChanged, labelsChanged } = podEndpointsChanged(old, pod);
  if (!podChanged && !labelsChanged) return undefined;
  if (!labelsChanged || old.metadata.labels === undefined)
    return { namespace, labels: pod.metadata.labels, podChanged };
  return { namespace, labels: pod.metadata.labels, oldLabels: old.metadata.labels, podChanged };
}

/**
 * podEndpointsChanged mirrors util.podEndpointsChanged. labelsChanged: labels, hostname or subdomain differ.
 * podChanged: the deletionTimestamp (compared as Go pointers: two decoded objects never share one, so a set one on
 * either side counts), readiness, or the pod IPs changed. The node name is not looked at (set before the pod has
 * an IP, then immutable).
 */
export function podEndpointsChanged(
  old: Pod,
  pod: Pod,
): { readonly podChanged: boolean; readonly labelsChanged: boolean } {
  const labelsChanged =
    !jsonEqual(old.metadata.labels ?? null, pod.metadata.labels ?? null) ||
    (old.spec?.hostname ?? '') !== (pod.spec?.hostname ?? '') ||
    (old.spec?.subdomain ?? '') !== (pod.spec?.subdomain ?? '');
  const ips = (p: Pod): string[] => (p.status?.podIPs ?? []).map((ip) => ip.ip);
  const podChanged =
    old.metadata.deletionTimestamp !== undefined ||
    pod.metadata.deletionTimestamp !== undefined ||
    isPodReady(old) !== isPodReady(pod) ||
    !jsonEqual(ips(old), ips(pod));
  return { podChanged, labelsChanged };
}

/**
 * getServicesToUpdate mirrors util.GetServicesToUpdate: the Services selecting the pod's labels; when the labels
 * changed, with those selecting the old ones: all of both if the pod changed too, else those in only one.
 */
export function getServicesToUpdate(services: Lister<Service>, key: PodProjectionKey): string[] {
  const current = getServicesForPod(services, key.namespace, key.labels);
  if (key.oldLabels === undefined) return [...current];
  const old = getServicesForPod(services, key.namespace, key.oldLabels);
  if (key.podChanged) return [...new Set([...current, ...old])];
  return [...current].filter((s) => !old.has(s)).concat([...old].filter((s) => !current.has(s)));
}

/** getServicesForPod: the keys of the namespace's Services with a selector (nil selects nothing, {} everything) matching labels. */
function getServicesForPod(services: Lister<Service>, namespace: string, labels: Labels | undefined): Set<string> {
  const matching = services
    .byIndex(NAMESPACE_INDEX, namespace)
    .filter((s) => s.spec?.selector != null && labelsSuperset(s.spec.selector, labels));
  return new Set(matching.map((s) => objectKey(s.metadata)));
}

/**
 * isLeftoverCandidate says whether an Endpoints event enqueues its key (= its Service's): a delete always
 * (onEndpointsDelete, so a Service's Endpoints deleted by hand come back); a restored record, unless it is a leader
 * election record, is checkLeftoverEndpoints' startup pass (keys sync only once the caches did, so a key whose
 * Service is gone then has its Endpoints deleted). A live add or update enqueues nothing, as upstream.
 */
export function isLeftoverCandidate(event: ObjectEvent<Endpoints>): boolean {
  if (event.type === 'Deleted') return true;
  return !event.live && event.object.metadata.annotations?.[ANNOTATION_LEADER] === undefined;
}

/**
 * serviceEvent mirrors onServiceUpdate and onServiceDelete of the endpoints and endpointslice controllers: the
 * Service is enqueued at once, whatever the batch period; a new one at its cut (once the pods topic is known complete
 * up to when the watcher saw the Service), so its first Endpoints or slices hold the pods created just before it
 * rather than being written empty and then again, as upstream's synced informers let them.
 */
export function serviceEvent(event: ObjectEvent<Service>): HandlerOutput {
  return event.type === 'Applied' && event.old === undefined
    ? { enqueue: [], enqueueAtCut: [event.key] }
    : { enqueue: [event.key] };
}

/**
 * podEvent mirrors onPodUpdate then syncPod: the Services whose membership the change touches
 * (GetPodUpdateProjectionKey, GetServicesToUpdate) are enqueued after the batch period (AddAfter(0) is Add).
 */
export function podEvent(event: ObjectEvent<Pod>, services: Lister<Service>, batchMs: number): HandlerOutput {
  const projection = getPodUpdateProjectionKey(event);
  const keys = projection === undefined ? [] : getServicesToUpdate(services, projection);
  return afterDelay(keys, batchMs);
}

/** afterDelay is queue.AddAfter(key, ms) for each key; AddAfter(0) is Add. */
export function afterDelay(keys: readonly string[], ms: number): HandlerOutput {
  return ms <= 0 ? { enqueue: keys } : { enqueue: [], enqueueAfter: keys.map((key) => ({ key, ms })) };
}
