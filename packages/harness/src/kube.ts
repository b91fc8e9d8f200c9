import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { httpCall } from '@kcm-bus/stack/probes.ts';
import { tlsClient } from '@kcm-bus/stack/pki.ts';
import type { StackEndpoints } from '@kcm-bus/stack/endpoints.ts';
import { waitFor } from './wait.ts';

/** readEndpoints reads a running stack's endpoints file (`<stack dir>/endpoints.json`, written by `up`). */
export function readEndpoints(file: string): StackEndpoints {
  return JSON.parse(readFileSync(file, 'utf8')) as StackEndpoints;
}

/** uniqueName makes object names that do not collide between tests or runs. */
export function uniqueName(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`;
}

/** RawKube makes API calls with the admin identity and returns the JSON as the apiserver wrote it. */
export type RawKube = (method: string, path: string, body?: unknown) => Promise<Record<string, unknown>>;

/**
 * rawKube calls the apiserver of the stack whose endpoints file is `file`, as its admin, for callers that compare
 * API objects byte for byte with what kcm-bus published (client-node turns times into Dates).
 */
export function rawKube(file: string): RawKube {
  const tls = tlsClient(dirname(file), 'admin');
  const server = readEndpoints(file).apiserver;
  return async (method, path, body) => {
    const answer = await httpCall(`${server}${path}`, {
      method,
      tls,
      timeoutMs: 60_000,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    if (answer.status >= 300) throw new Error(`${method} ${path}: ${answer.status} ${answer.body.slice(0, 300)}`);
    return JSON.parse(answer.body) as Record<string, unknown>;
  };
}

type NodeJson = {
  metadata: object;
  spec?: { taints?: { key: string; effect: string }[] };
  status?: { conditions?: { type: string; status: string }[] };
};

/**
 * untaintWhenReady waits until kwok reports the node Ready and takes off the `node.kubernetes.io/not-ready:NoSchedule`
 * taint the apiserver puts on every new node. The test and bench stacks run no node lifecycle controller
 * (reconciler-node's tests and S5 start theirs, and another would act on their nodes too), so this does for the other
 * tests what that controller's NoSchedule pass does: lets kube-scheduler place pods there.
 */
export async function untaintWhenReady(kube: RawKube, name: string): Promise<void> {
  const path = `/api/v1/nodes/${name}`;
  await waitFor(`${name} Ready and its not-ready taint off`, async () => {
    const node = (await kube('GET', path)) as NodeJson;
    if (node.status?.conditions?.find((c) => c.type === 'Ready')?.status !== 'True') return false;
    const taints = node.spec?.taints ?? [];
    if (!taints.some((t) => t.key === 'node.kubernetes.io/not-ready')) return true;
    await kube('PUT', path, {
      ...node,
      spec: { ...node.spec, taints: taints.filter((t) => t.key !== 'node.kubernetes.io/not-ready') },
    });
    return false;
  });
}
