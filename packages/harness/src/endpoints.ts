import type { RawKube } from './kube.ts';

/** EndpointAddress is the part of a core/v1 EndpointAddress the Endpoints tests and S4 read. */
export type EndpointAddress = {
  readonly ip: string;
  readonly hostname?: string;
  readonly nodeName?: string;
  readonly targetRef?: {
    readonly kind?: string;
    readonly name?: string;
    readonly namespace?: string;
    readonly uid?: string;
    readonly resourceVersion?: string;
  };
};

/** EndpointsObject is the part of a core/v1 Endpoints the Endpoints tests and S4 read. */
export type EndpointsObject = {
  readonly metadata: {
    readonly name: string;
    readonly resourceVersion?: string;
    readonly labels?: Record<string, string>;
    readonly annotations?: Record<string, string>;
  };
  readonly subsets?: readonly {
    readonly addresses?: readonly EndpointAddress[];
    readonly notReadyAddresses?: readonly EndpointAddress[];
    readonly ports?: readonly { readonly name?: string; readonly port: number; readonly protocol?: string }[];
  }[];
};

/** readyIPs are the IPs of an Endpoints' ready addresses (or its not-ready ones), sorted; none for no Endpoints. */
export function readyIPs(
  e: EndpointsObject | undefined,
  list: 'addresses' | 'notReadyAddresses' = 'addresses',
): string[] {
  return (e?.subsets ?? []).flatMap((s) => (s[list] ?? []).map((a) => a.ip)).sort();
}

/**
 * setPodReady sets a running pod's Ready condition, as the kubelet does when a readiness probe starts failing or
 * passing: kwok sets it only once, when the pod starts, and leaves it alone afterwards.
 */
export async function setPodReady(kube: RawKube, ns: string, name: string, ready: boolean): Promise<void> {
  const path = `/api/v1/namespaces/${ns}/pods/${name}/status`;
  const pod = (await kube('GET', path)) as { status?: { conditions?: { type: string; status: string }[] } };
  const conditions = (pod.status?.conditions ?? []).map((c) =>
    c.type === 'Ready' || c.type === 'ContainersReady'
      ? { ...c, status: ready ? 'True' : 'False', lastTransitionTime: new Date().toISOString().replace(/\.\d+Z$/, 'Z') }
      : c,
  );
  await kube('PUT', path, { ...pod, status: { ...pod.status, conditions } });
}
