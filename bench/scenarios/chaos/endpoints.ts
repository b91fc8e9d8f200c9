import type { RawKube } from '@kcm-bus/harness/kube.ts';

type Pod = {
  metadata: { deletionTimestamp?: string };
  status?: { podIP?: string; conditions?: { type: string; status: string }[] };
};
type Address = { ip: string };
type Endpoints = { subsets?: { addresses?: Address[]; notReadyAddresses?: Address[] }[] };

/** serviceManifest is a Service named `name` over the pods labelled app=<name> (rcManifest's), port 80. */
export function serviceManifest(name: string): Record<string, unknown> {
  return { metadata: { name }, spec: { selector: { app: name }, ports: [{ port: 80 }] } };
}

/**
 * endpointsRight tells whether the Endpoints of Service `name` in `ns` hold exactly what upstream's endpoints
 * controller would write for the pods the API has now (ShouldPodBeInEndpoints, publishNotReadyAddresses off): every
 * live pod with an IP, ready when its Ready condition is True, else not ready; and no other address. An Endpoints
 * not written yet is right only when no pod qualifies.
 */
export async function endpointsRight(kube: RawKube, ns: string, name: string): Promise<boolean> {
  const pods = (
    (await kube('GET', `/api/v1/namespaces/${ns}/pods?labelSelector=app%3D${name}`))['items'] as Pod[]
  ).filter((p) => p.metadata.deletionTimestamp === undefined && p.status?.podIP);
  const want = {
    ready: pods.filter(ready).map(ip).sort(),
    notReady: pods
      .filter((p) => !ready(p))
      .map(ip)
      .sort(),
  };
  const got = await kube('GET', `/api/v1/namespaces/${ns}/endpoints/${name}`).then(
    (e) => e as Endpoints,
    () => ({}) as Endpoints,
  );
  const subsets = got.subsets ?? [];
  const have = {
    ready: subsets
      .flatMap((s) => s.addresses ?? [])
      .map((a) => a.ip)
      .sort(),
    notReady: subsets
      .flatMap((s) => s.notReadyAddresses ?? [])
      .map((a) => a.ip)
      .sort(),
  };
  return JSON.stringify(want) === JSON.stringify(have);
}

const ready = (p: Pod): boolean => (p.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');
const ip = (p: Pod): string => p.status?.podIP ?? '';
