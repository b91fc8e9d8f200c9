import { type EndpointSlice, LABEL_SERVICE_NAME } from '@kcm-bus/k8s/discovery-v1.ts';
import {
  type Lister,
  type Listing,
  type ReadyToEndpoints,
  watchReadyToListed,
} from '../../lib/endpoints/ready-to-endpoints.ts';

/**
 * slicesListing is the union of a Service's EndpointSlices: the pods (by targetRef) of the endpoints whose
 * conditions.ready is true in any slice, and every endpoint (by targetRef, else its first address) ready or not.
 * A pod the controller moves between slices may show in two for a moment: the union counts it once.
 */
export function slicesListing(slices: Iterable<EndpointSlice>): Listing {
  const ready = new Set<string>();
  const all = new Set<string>();
  for (const endpoint of [...slices].flatMap((s) => s.endpoints ?? [])) {
    const name = endpoint.targetRef?.name;
    all.add(name ?? endpoint.addresses[0] ?? '');
    if (name !== undefined && endpoint.conditions?.ready === true) ready.add(name);
  }
  return { ready: [...ready], all: all.size };
}

/** slicesLister keeps the Service's slices by name (the watch selects them by label) and lists their union; none while no slice exists. */
function slicesLister(): Lister<EndpointSlice> {
  const slices = new Map<string, EndpointSlice>();
  return (type, slice) => {
    if (type === 'DELETED') slices.delete(slice.metadata.name);
    else slices.set(slice.metadata.name, slice);
    return slices.size === 0 ? undefined : slicesListing(slices.values());
  };
}

/**
 * watchReadyToSlices watches the pods of `ns` and the EndpointSlices of the Service `service` (label
 * kubernetes.io/service-name=<service>, as kube-proxy selects them): S4S's start and end marks, as S4's for Endpoints.
 */
export function watchReadyToSlices(kubeconfig: string, ns: string, service: string): ReadyToEndpoints {
  const selector = encodeURIComponent(`${LABEL_SERVICE_NAME}=${service}`);
  return watchReadyToListed(
    kubeconfig,
    ns,
    `/apis/discovery.k8s.io/v1/namespaces/${ns}/endpointslices?labelSelector=${selector}`,
    slicesLister(),
  );
}
