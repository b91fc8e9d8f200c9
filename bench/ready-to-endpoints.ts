import type { EndpointsObject } from '../test/support/endpoints.ts';
import { follow } from './follow.ts';

/** ReadyPod is what S4 reads of a pod on its client watch. */
type ReadyPod = {
  readonly metadata: { readonly name: string; readonly resourceVersion?: string };
  readonly status?: { readonly podIP?: string; readonly conditions?: readonly { readonly type: string; readonly status: string }[] };
};

/** ReadyCount is the number of ready addresses in the Service's Endpoints at one watch delivery (ms). */
export type ReadyCount = { readonly at: number; readonly ready: number };

/**
 * ReadyToEndpoints is what two client watches on one namespace saw: when each pod was first Ready with an IP,
 * when each pod first showed as a ready address (by targetRef) of the Service's Endpoints, the latest Endpoints,
 * and the Endpoints' ready address count over time.
 */
export type ReadyToEndpoints = {
  readonly readyAt: ReadonlyMap<string, number>;
  readonly listedAt: ReadonlyMap<string, number>;
  readonly endpoints: () => EndpointsObject | undefined;
  readonly counts: readonly ReadyCount[];
  readonly stop: () => void;
};

/** readyNames are the pod names of an Endpoints' ready addresses. */
export function readyNames(e: EndpointsObject | undefined): string[] {
  return (e?.subsets ?? []).flatMap((s) => (s.addresses ?? []).flatMap((a) => (a.targetRef?.name === undefined ? [] : [a.targetRef.name])));
}

/**
 * watchReadyToEndpoints opens the pod and Endpoints watches of namespace `ns` for the Service `service`: S4's
 * start mark (the pod Ready, as a client sees it) and end mark (its address in the Endpoints, as a client sees it).
 */
export function watchReadyToEndpoints(kubeconfig: string, ns: string, service: string): ReadyToEndpoints {
  const readyAt = new Map<string, number>();
  const listedAt = new Map<string, number>();
  const counts: ReadyCount[] = [];
  let latest: EndpointsObject | undefined;
  const pods = follow<ReadyPod>(kubeconfig, `/api/v1/namespaces/${ns}/pods`, (type, pod, at) => {
    const ready = pod.status?.podIP !== undefined && pod.status.conditions?.some((c) => c.type === 'Ready' && c.status === 'True');
    if (type !== 'DELETED' && ready && !readyAt.has(pod.metadata.name)) readyAt.set(pod.metadata.name, at);
  });
  const endpoints = follow<EndpointsObject>(kubeconfig, `/api/v1/namespaces/${ns}/endpoints`, (type, e, at) => {
    if (e.metadata.name !== service) return;
    latest = type === 'DELETED' ? undefined : e;
    const names = readyNames(latest);
    for (const name of names) if (!listedAt.has(name)) listedAt.set(name, at);
    counts.push({ at, ready: names.length });
  });
  return {
    readyAt, listedAt, counts,
    endpoints: () => {
      pods.check();
      endpoints.check();
      return latest;
    },
    stop: () => {
      pods.stop();
      endpoints.stop();
    },
  };
}
