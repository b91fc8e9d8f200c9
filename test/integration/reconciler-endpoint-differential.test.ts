import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { busFlags, rawKube, schedulableKwokNode, testStack, uniqueName } from '../support/stack.ts';
import { type EndpointAddress, type EndpointsObject, setPodReady } from '@kcm-bus/harness/endpoints.ts';
import { startService, stopAllServices } from '@kcm-bus/harness/processes.ts';
import { startUpstream, type Upstream } from '@kcm-bus/harness/upstream.ts';
import { waitFor, waitForSteady } from '@kcm-bus/harness/wait.ts';

const stack = testStack();
const kube = rawKube();
const node = uniqueName('kwok-ep-diff');
const SERVICES = ['web', 'publish', 'db', 'manual', 'doomed'];
const TRIGGER_TIME = 'endpoints.kubernetes.io/last-change-trigger-time';

/** Scripted is one namespace of the script: its API paths and its steps. */
type Scripted = { readonly path: (kind: string, name?: string) => string; readonly ns: string };

const pod = (
  s: Scripted,
  name: string,
  labels: Record<string, string>,
  port: number,
  spec: Record<string, unknown> = {},
) =>
  kube('POST', s.path('pods'), {
    metadata: { name, labels },
    spec: {
      nodeName: node,
      containers: [{ name: 'c', image: 'nginx', ports: [{ name: 'web', containerPort: port }] }],
      ...spec,
    },
  });
const service = (s: Scripted, name: string, spec: Record<string, unknown>, labels: Record<string, string> = {}) =>
  kube('POST', s.path('services'), {
    metadata: { name, labels },
    spec: { ports: [{ name: 'http', port: 80, targetPort: 'web' }], ...spec },
  });
const endpoints = async (s: Scripted, name: string): Promise<EndpointsObject | undefined> =>
  ((await kube('GET', s.path('endpoints'))) as { items: EndpointsObject[] }).items.find(
    (e) => e.metadata.name === name,
  );

/** members waits until a Service's Endpoints list exactly these pods as ready and not-ready addresses (by targetRef name). */
async function members(
  s: Scripted,
  name: string,
  ready: readonly string[],
  notReady: readonly string[] = [],
): Promise<void> {
  const names = (e: EndpointsObject | undefined, list: 'addresses' | 'notReadyAddresses'): string =>
    JSON.stringify((e?.subsets ?? []).flatMap((x) => (x[list] ?? []).map((a) => a.targetRef?.name)).sort());
  await waitFor(
    `${s.ns}/${name}: ready ${ready.join(',')}; not ready ${notReady.join(',')}`,
    async () => {
      const e = await endpoints(s, name);
      return (
        e !== undefined &&
        names(e, 'addresses') === JSON.stringify([...ready].sort()) &&
        names(e, 'notReadyAddresses') === JSON.stringify([...notReady].sort())
      );
    },
    { timeoutMs: 120_000 },
  );
}

/**
 * script is the scenario both systems run, each in its own namespace: Services over pods that become Ready (kwok)
 * and then not, a named targetPort mapping to 8080 on some pods and 9090 on another, publishNotReadyAddresses, a
 * headless Service with a pod whose hostname/subdomain match and one whose subdomain does not, a selectorless Service
 * with user-managed Endpoints, a pod deleted and a Service deleted.
 */
async function script(ns: string): Promise<Snapshot> {
  const s: Scripted = {
    ns,
    path: (kind, name = '') => `/api/v1/namespaces/${ns}/${kind}${name === '' ? '' : `/${name}`}`,
  };
  await kube('POST', '/api/v1/namespaces', { metadata: { name: ns } });
  await service(s, 'web', { selector: { app: 'web' } }, { tier: 'front' });
  await service(s, 'publish', {
    selector: { app: 'web' },
    publishNotReadyAddresses: true,
    ports: [
      { name: 'http', port: 80, targetPort: 'web' },
      { name: 'metrics', port: 9100, targetPort: 9100 },
    ],
  });
  await service(s, 'db', { selector: { app: 'db' }, clusterIP: 'None', ports: [{ port: 5432, targetPort: 5432 }] });
  await service(s, 'manual', {});
  await kube('POST', s.path('endpoints'), {
    metadata: { name: 'manual', labels: { owner: 'user' } },
    subsets: [{ addresses: [{ ip: '10.9.9.9' }], ports: [{ port: 80 }] }],
  });
  await service(s, 'doomed', { selector: { app: 'web' } });
  await pod(s, 'web-a', { app: 'web' }, 8080);
  await pod(s, 'web-b', { app: 'web' }, 9090);
  await pod(s, 'web-c', { app: 'web' }, 8080);
  await pod(s, 'db-0', { app: 'db' }, 5432, { hostname: 'db-0', subdomain: 'db' });
  await pod(s, 'db-1', { app: 'db' }, 5432, { hostname: 'db-1', subdomain: 'other' });
  await members(s, 'web', ['web-a', 'web-b', 'web-c']);
  await members(s, 'db', ['db-0', 'db-1']);
  await setPodReady(kube, ns, 'web-b', false);
  await members(s, 'web', ['web-a', 'web-c'], ['web-b']);
  await kube('DELETE', `${s.path('pods', 'web-c')}?gracePeriodSeconds=0`);
  await members(s, 'web', ['web-a'], ['web-b']);
  await setPodReady(kube, ns, 'db-1', false);
  await members(s, 'db', ['db-0'], ['db-1']);
  await kube('DELETE', s.path('services', 'doomed'));
  return converged(s);
}

/** Snapshot is each Service's Endpoints, names aside: IPs as the pods' names, targetRefs without namespace or uid. */
type Snapshot = Record<string, unknown>;

async function snapshot(s: Scripted): Promise<Snapshot> {
  const pods = (
    (await kube('GET', s.path('pods'))) as { items: { metadata: { name: string }; status?: { podIP?: string } }[] }
  ).items;
  const byIP = new Map(pods.map((p) => [p.status?.podIP, `ip of ${p.metadata.name}`]));
  const address = ({ ip, targetRef, ...rest }: EndpointAddress): string => {
    const { namespace: _n, uid: _u, resourceVersion: _r, ...ref } = targetRef ?? {};
    return JSON.stringify({ ip: byIP.get(ip) ?? ip, ...rest, ...(targetRef ? { targetRef: ref } : {}) });
  };
  const out: Snapshot = {};
  for (const name of SERVICES) {
    const e = await endpoints(s, name);
    const { [TRIGGER_TIME]: _t, ...annotations } = e?.metadata.annotations ?? {};
    out[name] = e && {
      labels: e.metadata.labels,
      annotations,
      subsets: (e.subsets ?? [])
        .map((x) =>
          JSON.stringify({
            addresses: (x.addresses ?? []).map(address).sort(),
            notReadyAddresses: (x.notReadyAddresses ?? []).map(address).sort(),
            ports: (x.ports ?? []).map((p) => JSON.stringify(p)).sort(),
          }),
        )
        .sort(),
    };
  }
  return out;
}

/** converged waits until the doomed Service's Endpoints are gone and three polls a second apart agree. */
function converged(s: Scripted): Promise<Snapshot> {
  return waitForSteady(
    s.ns,
    () => snapshot(s),
    (x) => x['doomed'] === undefined,
  );
}

describe('differential: the same Endpoints script under upstream kube-controller-manager and under kcm-bus ends in the same Endpoints', () => {
  let upstream: Upstream | undefined;
  before(async () => {
    await schedulableKwokNode(node);
  });
  after(async () => {
    await upstream?.stop();
    await stopAllServices();
  });

  it('addresses, ports, subsets, labels and annotations (but the trigger time) match, names aside', async () => {
    upstream = startUpstream(stack, { controllers: 'endpoints-controller' });
    const expected = await script(uniqueName('epdiff-up'));
    await upstream.stop();
    const bus = busFlags(stack);
    await startService('watcher', [...bus, '--kubeconfig', stack.kubeconfigs.watcher, '--partitions', '3']);
    await startService('writer', [...bus, '--kubeconfig', stack.kubeconfigs.writer, '--partitions', '3']);
    await startService('reconciler-endpoint', bus);
    const actual = await script(uniqueName('epdiff-bus'));
    assert.deepEqual(actual, expected);
  });
});
