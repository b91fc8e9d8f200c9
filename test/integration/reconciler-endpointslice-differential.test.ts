import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { busFlags, rawKube, schedulableKwokNode, testStack, testWriterFlags, uniqueName } from '../support/stack.ts';
import { mergedSlices, convergedSlices, sliceSnapshot, type SliceSnapshot } from '../support/slices.ts';
import { startService, stopAllServices } from '@kcm-bus/harness/processes.ts';
import { startUpstream, type Upstream } from '@kcm-bus/harness/upstream.ts';
import { waitFor } from '@kcm-bus/harness/wait.ts';

const stack = testStack();
const kube = rawKube();

/** podManifest is a pod of app `app` whose container port `http` is `port`, with extra spec fields. */
function podManifest(
  name: string,
  app: string,
  port: number,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    metadata: { name, labels: { app } },
    spec: { containers: [{ name: 'c', image: 'nginx', ports: [{ name: 'http', containerPort: port }] }], ...extra },
  };
}

/** serviceManifest is a Service of port 80 to the targetPort named `http`, selecting app=<app> (none: selectorless). */
function serviceManifest(
  name: string,
  app: string | undefined,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    metadata: { name },
    spec: {
      ...(app === undefined ? {} : { selector: { app } }),
      ports: [{ name: 'web', port: 80, targetPort: 'http' }],
      ...extra,
    },
  };
}

/** Outcome is what the script compares, per step: each Service's slices (SliceSnapshot) at that point. */
type Outcome = Record<string, SliceSnapshot>;

/**
 * script is the EndpointSlice scenario both systems run, each in its own namespace: a Service of 3 pods, one of them
 * not Ready, one with hostname and subdomain; a Service with publishNotReadyAddresses; 150 pods whose named
 * targetPort resolves to two numbers (two port mappings, and two slices for the 140 of one); a selectorless
 * Service; the 150 scaled down to 10 (compared merged: mergedSlices); a Service deleted (its slices go with it, by the garbage collector).
 */
async function script(ns: string): Promise<Outcome> {
  const pods = `/api/v1/namespaces/${ns}/pods`;
  const services = `/api/v1/namespaces/${ns}/services`;
  const out: Outcome = {};
  await kube('POST', '/api/v1/namespaces', { metadata: { name: ns } });
  await kube('POST', services, serviceManifest('web', 'web'));
  await kube('POST', services, serviceManifest('pnr', 'web', { publishNotReadyAddresses: true }));
  await kube('POST', services, serviceManifest('manual', undefined));
  for (const [i, extra] of [{}, { hostname: 'h1', subdomain: 'web' }, {}].entries())
    await kube('POST', pods, podManifest(`web-${i}`, 'web', 8080, extra));
  await waitFor(
    '3 web pods Running with IPs',
    async () =>
      (
        (await kube('GET', `${pods}?labelSelector=app%3Dweb`))['items'] as {
          status?: { phase?: string; podIP?: string };
        }[]
      ).filter((p) => p.status?.phase === 'Running' && p.status.podIP).length === 3,
  );
  // The slice shows the three Ready first: web-2's change is then a sync of its own, whose trigger time (the Ready
  // condition's unchanged lastTransitionTime) is not newer than the one the controller saw: no annotation.
  out['web3'] = await convergedSlices(kube, ns, 'web', 3, 3);
  await notReady(pods, 'web-2');
  out['web'] = await convergedSlices(kube, ns, 'web', 3, 2);
  out['pnr'] = await convergedSlices(kube, ns, 'pnr', 3);
  for (let i = 0; i < 150; i++) await kube('POST', pods, podManifest(`many-${i}`, 'many', i < 140 ? 8080 : 8081));
  await kube('POST', services, serviceManifest('many', 'many'));
  out['many150'] = await convergedSlices(kube, ns, 'many', 150);
  for (let i = 10; i < 150; i++) await kube('DELETE', `${pods}/many-${i}?gracePeriodSeconds=0`);
  out['many10'] = mergedSlices(await convergedSlices(kube, ns, 'many', 10));
  out['manual'] = await sliceSnapshot(kube, ns, 'manual');
  await kube('DELETE', `${services}/web`);
  out['webDeleted'] = await convergedSlices(kube, ns, 'web', 0);
  return out;
}

/** notReady sets a Running pod's Ready condition False, as its kubelet would when a readiness probe fails. */
async function notReady(pods: string, name: string): Promise<void> {
  const pod = await kube('GET', `${pods}/${name}`);
  const status = pod['status'] as { conditions?: { type: string; status: string }[] };
  const conditions = (status.conditions ?? []).map((c) =>
    c.type === 'Ready' || c.type === 'ContainersReady' ? { ...c, status: 'False' } : c,
  );
  await kube('PUT', `${pods}/${name}/status`, { ...pod, status: { ...status, conditions } });
}

describe("differential: the same EndpointSlice script under upstream's endpointslice-controller and under kcm-bus ends in the same slices", () => {
  let upstream: Upstream | undefined;
  before(async () => {
    await schedulableKwokNode(uniqueName('kwok-eps'));
  });
  after(async () => {
    await upstream?.stop();
    await stopAllServices();
  });

  it('slice count, ports, address types, endpoints and their conditions, hostnames and labels match at every step, names and IPs aside', async () => {
    upstream = startUpstream(stack, { controllers: 'endpointslice-controller', qps: 100, burst: 100 });
    const expected = await script(uniqueName('eps-up'));
    await upstream.stop();
    const bus = busFlags(stack);
    await startService('watcher', [...bus, '--kubeconfig', stack.kubeconfigs.watcher, '--partitions', '3']);
    await startService('writer', testWriterFlags(bus));
    await startService('reconciler-endpoint', bus);
    const actual = await script(uniqueName('eps-bus'));
    for (const step of Object.keys(expected)) assert.deepEqual(actual[step], expected[step], step);
  });
});
