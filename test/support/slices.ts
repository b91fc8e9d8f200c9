import type { RawKube } from './stack.ts';
import { waitForSteady } from '@kcm-bus/harness/wait.ts';

type Endpoint = {
  readonly addresses: readonly string[];
  readonly conditions?: Record<string, boolean | undefined>;
  readonly hostname?: string;
  readonly nodeName?: string;
  readonly zone?: string;
  readonly targetRef?: { readonly kind?: string };
  readonly hints?: unknown;
};
type Slice = {
  readonly metadata: {
    readonly name: string;
    readonly labels?: Record<string, string>;
    readonly annotations?: Record<string, string>;
    readonly deletionTimestamp?: string;
    readonly ownerReferences?: readonly {
      readonly kind: string;
      readonly name: string;
      readonly controller?: boolean;
    }[];
  };
  readonly addressType: string;
  readonly endpoints?: readonly Endpoint[] | null;
  readonly ports?: readonly { readonly name?: string; readonly port?: number; readonly protocol?: string }[] | null;
};

/** SliceSnapshot is one Service's EndpointSlices as a user compares them, names and IPs aside: each slice in a canonical order. */
export type SliceSnapshot = readonly string[];

/** MANAGED_BY is the managed-by label of the endpointslice controller's slices (upstream's and kcm-bus's alike). */
const MANAGED_BY = 'endpointslice.kubernetes.io/managed-by';

/**
 * describeSlice is a slice without its generated name and pods' IPs: address type, ports, its endpoints (conditions,
 * hostname, whether it names a node (the scheduler picks which), zone, target kind, hints), labels but the managed-by one (upstream's and ours are the same value,
 * the mirroring controller's another), whether it has the trigger-time annotation, and its controller.
 */
function describeSlice(s: Slice): string {
  const endpoints = (s.endpoints ?? [])
    .map((e) =>
      JSON.stringify({
        c: e.conditions,
        h: e.hostname,
        n: e.nodeName !== undefined,
        z: e.zone,
        t: e.targetRef?.kind,
        hints: e.hints,
        ips: e.addresses.length,
      }),
    )
    .sort();
  const ports = (s.ports ?? []).map((p) => `${p.name ?? ''}:${p.port ?? ''}/${p.protocol ?? ''}`).sort();
  const owner = s.metadata.ownerReferences?.find((r) => r.controller);
  const labels = Object.entries(s.metadata.labels ?? {})
    .sort()
    .map(([k, v]) => `${k}=${v}`);
  const trigger = s.metadata.annotations?.['endpoints.kubernetes.io/last-change-trigger-time'] !== undefined;
  return JSON.stringify({
    type: s.addressType,
    ports,
    endpoints,
    labels,
    trigger,
    owner: owner ? `${owner.kind}/${owner.name}` : null,
  });
}

/** sliceSnapshot reads the slices of a Service (by its service-name label) in namespace ns. */
export async function sliceSnapshot(kube: RawKube, ns: string, service: string): Promise<SliceSnapshot> {
  const selector = encodeURIComponent(`kubernetes.io/service-name=${service}`);
  const items = (
    await kube('GET', `/apis/discovery.k8s.io/v1/namespaces/${ns}/endpointslices?labelSelector=${selector}`)
  )['items'] as Slice[];
  return items
    .filter(
      (s) =>
        s.metadata.deletionTimestamp === undefined &&
        s.metadata.labels?.[MANAGED_BY] === 'endpointslice-controller.k8s.io',
    )
    .map(describeSlice)
    .sort();
}

/** endpointsOf are a snapshot's endpoints, parsed: their conditions. */
function endpointsOf(s: SliceSnapshot): { readonly c?: { readonly ready?: boolean } }[] {
  return s.flatMap((slice) =>
    (JSON.parse(slice) as { endpoints: string[] }).endpoints.map((e) => JSON.parse(e) as { c?: { ready?: boolean } }),
  );
}

/**
 * convergedSlices waits until the Service's slices hold `endpoints` endpoints in all (`ready` of them Ready, when
 * given) and three polls a second apart agree.
 */
export function convergedSlices(
  kube: RawKube,
  ns: string,
  service: string,
  endpoints: number,
  ready?: number,
): Promise<SliceSnapshot> {
  const done = (s: SliceSnapshot): boolean =>
    endpointsOf(s).length === endpoints &&
    (ready === undefined || endpointsOf(s).filter((e) => e.c?.ready).length === ready);
  return waitForSteady(`${ns}/${service} slices`, () => sliceSnapshot(kube, ns, service), done, { timeoutMs: 180_000 });
}

/**
 * mergedSlices is a snapshot with the slices of one address type and port set joined into one: after endpoints are
 * removed, which slice the remaining ones sit in follows the order the controller listed the pods in when it filled
 * the slices (upstream's lister order is a Go map's, so random), and so does the number of slices left.
 */
export function mergedSlices(s: SliceSnapshot): SliceSnapshot {
  const groups = new Map<string, string[]>();
  for (const slice of s) {
    const { type, ports, endpoints, labels, owner } = JSON.parse(slice) as {
      type: string;
      ports: string[];
      endpoints: string[];
      labels: string[];
      owner: string | null;
    };
    const key = JSON.stringify({ type, ports, labels, owner });
    groups.set(key, [...(groups.get(key) ?? []), ...endpoints]);
  }
  return [...groups]
    .map(([key, endpoints]) => JSON.stringify({ ...(JSON.parse(key) as object), endpoints: endpoints.sort() }))
    .sort();
}
