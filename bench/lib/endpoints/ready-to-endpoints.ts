import { readyIPs, type EndpointsObject } from '@kcm-bus/harness/endpoints.ts';
import { follow } from '../follow.ts';

/** ReadyPod is what S4 reads of a pod on its client watch. */
type ReadyPod = {
  readonly metadata: { readonly name: string; readonly resourceVersion?: string };
  readonly status?: {
    readonly podIP?: string;
    readonly conditions?: readonly { readonly type: string; readonly status: string }[];
  };
};

/** ReadyCount is the number of ready endpoints listed for the Service at one watch delivery (ms). */
export type ReadyCount = { readonly at: number; readonly ready: number };

/** Listing is what a Service's Endpoints (or EndpointSlices) list: the pods listed ready, and how many endpoints in all, ready or not. */
export type Listing = { readonly ready: readonly string[]; readonly all: number };

/** Lister folds one event of the listed collection's watch into the Service's listing: undefined while it has none. */
export type Lister<T> = (type: string, obj: T) => Listing | undefined;

/**
 * ReadyToEndpoints is what two client watches on one namespace saw: when each pod was first Ready with an IP,
 * when each pod first showed as a ready endpoint (by targetRef) of the Service, the Service's latest listing,
 * and its ready endpoint count over time.
 */
export type ReadyToEndpoints = {
  readonly readyAt: ReadonlyMap<string, number>;
  readonly listedAt: ReadonlyMap<string, number>;
  readonly listing: () => Listing | undefined;
  readonly counts: readonly ReadyCount[];
  readonly stop: () => void;
};

/** readyNames are the pod names of an Endpoints' ready addresses. */
export function readyNames(e: EndpointsObject | undefined): string[] {
  return (e?.subsets ?? []).flatMap((s) =>
    (s.addresses ?? []).flatMap((a) => (a.targetRef?.name === undefined ? [] : [a.targetRef.name])),
  );
}

/** endpointsLister lists the Endpoints named `service` (events of other Endpoints leave the listing as it was). */
function endpointsLister(service: string): Lister<EndpointsObject> {
  let latest: Listing | undefined;
  return (type, e) => {
    if (e.metadata.name !== service) return latest;
    latest =
      type === 'DELETED'
        ? undefined
        : { ready: readyNames(e), all: readyIPs(e).length + readyIPs(e, 'notReadyAddresses').length };
    return latest;
  };
}

/**
 * watchReadyToListed opens the pod watch of namespace `ns` and the watch of `path` (a collection in `ns`, a label
 * selector allowed), folded by `lister`: an S4 scenario's start mark (the pod Ready, as a client sees it) and end
 * mark (the pod listed ready for the Service, as a client sees it).
 */
export function watchReadyToListed<T extends { readonly metadata?: { readonly resourceVersion?: string } }>(
  kubeconfig: string,
  ns: string,
  path: string,
  lister: Lister<T>,
): ReadyToEndpoints {
  const readyAt = new Map<string, number>();
  const listedAt = new Map<string, number>();
  const counts: ReadyCount[] = [];
  let latest: Listing | undefined;
  const pods = follow<ReadyPod>(kubeconfig, `/api/v1/namespaces/${ns}/pods`, (type, pod, at) => {
    const ready =
      pod.status?.podIP !== undefined && pod.status.conditions?.some((c) => c.type === 'Ready' && c.status === 'True');
    if (type !== 'DELETED' && ready && !readyAt.has(pod.metadata.name)) readyAt.set(pod.metadata.name, at);
  });
  const listed = follow<T>(kubeconfig, path, (type, obj, at) => {
    latest = lister(type, obj);
    for (const name of latest?.ready ?? []) if (!listedAt.has(name)) listedAt.set(name, at);
    counts.push({ at, ready: latest?.ready.length ?? 0 });
  });
  return {
    readyAt,
    listedAt,
    counts,
    listing: () => {
      pods.check();
      listed.check();
      return latest;
    },
    stop: () => {
      pods.stop();
      listed.stop();
    },
  };
}

/** watchReadyToEndpoints watches the pods of `ns` and the Endpoints of the Service `service` (S4). */
export function watchReadyToEndpoints(kubeconfig: string, ns: string, service: string): ReadyToEndpoints {
  return watchReadyToListed(kubeconfig, ns, `/api/v1/namespaces/${ns}/endpoints`, endpointsLister(service));
}
