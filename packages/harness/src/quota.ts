import type { RawKube } from './kube.ts';

/*
 * What the quota differential and bench S17 do to a namespace's objects from outside, as a user or a kubelet would.
 */

/** podSucceeded turns a pod Succeeded, as its kubelet would report it (a terminal pod a quota no longer charges). */
export async function podSucceeded(kube: RawKube, ns: string, name: string): Promise<void> {
  const path = `/api/v1/namespaces/${ns}/pods/${name}`;
  const pod = await kube('GET', path);
  await kube('PUT', `${path}/status`, { ...pod, status: { ...(pod['status'] as object), phase: 'Succeeded' } });
}

/** setQuotaHard sets some of a quota's hard limits, the others kept (a spec change: its controller recalculates it). */
export async function setQuotaHard(
  kube: RawKube,
  ns: string,
  name: string,
  hard: Readonly<Record<string, string>>,
): Promise<void> {
  const path = `/api/v1/namespaces/${ns}/resourcequotas/${name}`;
  const quota = (await kube('GET', path)) as { spec: { hard: Record<string, string> } };
  await kube('PUT', path, { ...quota, spec: { ...quota.spec, hard: { ...quota.spec.hard, ...hard } } });
}
