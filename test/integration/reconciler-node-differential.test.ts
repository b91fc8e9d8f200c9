import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { busFlags, rawKube, testStack, uniqueName } from '../support/stack.ts';
import { FakeKubelet } from '../support/kubelet.ts';
import { startService, stopAllServices } from '../support/processes.ts';
import { startUpstream } from '../support/upstream.ts';
import { waitFor } from '../support/wait.ts';

const stack = testStack();
const kube = rawKube();
const bus = busFlags(stack);

/** Both systems run with upstream's default monitor period and a short grace period; times must agree within a period. */
const MONITOR_PERIOD_S = 5;
const PERIODS = ['--node-monitor-period', `${MONITOR_PERIOD_S}s`, '--node-monitor-grace-period', '10s', '--node-startup-grace-period', '10s'];

type Condition = { readonly type: string; readonly status: string; readonly reason?: string };
type Obj = { readonly metadata: { readonly deletionTimestamp?: string }; readonly spec?: { readonly taints?: readonly { key: string; effect: string }[] }; readonly status?: { readonly conditions?: readonly Condition[] } };
type Event = { readonly involvedObject: { readonly name: string }; readonly reason: string; readonly source?: { readonly component?: string }; readonly firstTimestamp?: string; readonly eventTime?: string; readonly metadata: { readonly creationTimestamp: string } };

/** Outcome is what a user sees of one run, with the run's own names replaced by their roles. */
type Outcome = {
  readonly dead: { readonly conditions: readonly string[]; readonly taints: readonly string[] };
  readonly revived: { readonly ready: string | undefined; readonly taints: readonly string[] };
  readonly patientReady: string | undefined;
  readonly short: { readonly terminating: boolean; readonly disruptionTarget: string | undefined };
  readonly events: Readonly<Record<string, readonly string[]>>;
  readonly seconds: Readonly<Record<string, number>>;
};

const get = async (path: string): Promise<Obj> => await kube('GET', path) as unknown as Obj;
const taints = (o: Obj): string[] => (o.spec?.taints ?? []).map((t) => `${t.key}:${t.effect}`).filter((t) => t.startsWith('node.kubernetes.io/')).sort();
const condition = (o: Obj, type: string): Condition | undefined => o.status?.conditions?.find((c) => c.type === type);

/**
 * nodeDeath is the script both systems run, each with its own zone of three fake kubelets and its own namespace: two
 * pods on the node that will die (one tolerating unreachable for 5 s, one with the default 300 s), its kubelet
 * stops, the node is judged, the short-tolerance pod evicted, then the kubelet comes back.
 */
async function nodeDeath(system: string): Promise<Outcome> {
  const ns = uniqueName(`nd-${system}`);
  const zone = uniqueName('zone');
  const kubelets = ['a', 'b', 'c'].map((r) => new FakeKubelet(kube, uniqueName(`nd${r}`), zone)) as [FakeKubelet, FakeKubelet, FakeKubelet];
  const dying = kubelets[2];
  await kube('POST', '/api/v1/namespaces', { metadata: { name: ns } });
  for (const k of kubelets) await k.register();
  const node = `/api/v1/nodes/${dying.name}`;
  const pod = (name: string) => `/api/v1/namespaces/${ns}/pods/${name}`;
  const tolerate5s = [{ key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 5 }];
  for (const [name, tolerations] of [['short', tolerate5s], ['patient', []]] as const) {
    await kube('POST', `/api/v1/namespaces/${ns}/pods`, { metadata: { name }, spec: { nodeName: dying.name, tolerations, containers: [{ name: 'c', image: 'nginx' }] } });
    await dying.podReady(ns, name);
  }
  await waitFor('every node schedulable', async () => (await Promise.all(kubelets.map(async (k) => taints(await get(`/api/v1/nodes/${k.name}`))))).every((t) => t.length === 0));
  const killed = Date.now();
  dying.die();
  const at = async (what: string, probe: () => Promise<boolean>): Promise<number> => {
    await waitFor(`${system}: ${what}`, probe, { timeoutMs: 120_000, intervalMs: 200 });
    return Math.round((Date.now() - killed) / 100) / 10;
  };
  const [unknown, tainted, notReady, evicted] = await Promise.all([
    at('node Unknown', async () => condition(await get(node), 'Ready')?.status === 'Unknown'),
    at('NoExecute taint', async () => taints(await get(node)).includes('node.kubernetes.io/unreachable:NoExecute')),
    at('patient NotReady', async () => condition(await get(pod('patient')), 'Ready')?.status === 'False'),
    at('short evicted', async () => (await get(pod('short'))).metadata.deletionTimestamp !== undefined),
  ]);
  const deadNode = await get(node);
  const dead = { conditions: (deadNode.status?.conditions ?? []).map((c) => `${c.type}=${c.status}/${c.reason ?? ''}`).sort(), taints: taints(deadNode) };
  await dying.revive();
  await waitFor(`${system}: node back and untainted`, async () => { const n = await get(node); return condition(n, 'Ready')?.status === 'True' && taints(n).length === 0; }, { timeoutMs: 120_000 });
  const revivedNode = await get(node);
  const short = await get(pod('short'));
  const outcome: Outcome = {
    dead, revived: { ready: condition(revivedNode, 'Ready')?.status, taints: taints(revivedNode) },
    patientReady: condition(await get(pod('patient')), 'Ready')?.status,
    short: { terminating: short.metadata.deletionTimestamp !== undefined, disruptionTarget: condition(short, 'DisruptionTarget')?.reason },
    events: await eventsOf(ns, { [dying.name]: 'dying node', short: 'short', patient: 'patient' }),
    seconds: { unknown, tainted, notReady, evicted },
  };
  for (const k of kubelets) await k.remove();
  return outcome;
}

/** eventsOf lists, per role, the reasons of the events about that object in the order they first happened. */
async function eventsOf(ns: string, roles: Readonly<Record<string, string>>): Promise<Record<string, string[]>> {
  const items = [...((await kube('GET', `/api/v1/namespaces/${ns}/events`))['items'] as Event[]), ...((await kube('GET', '/api/v1/namespaces/default/events'))['items'] as Event[])];
  const when = (e: Event): string => e.firstTimestamp ?? e.eventTime ?? e.metadata.creationTimestamp;
  const out: Record<string, string[]> = {};
  for (const e of items.sort((x, y) => when(x).localeCompare(when(y)))) {
    const role = roles[e.involvedObject.name];
    if (role === undefined || e.reason === 'RegisteredNode') continue;
    const reasons = out[role] ?? [];
    if (!reasons.includes(e.reason)) reasons.push(e.reason);
    out[role] = reasons;
  }
  return out;
}

describe('reconciler-node against upstream kube-controller-manager: one node-death script, the same outcome', () => {
  after(stopAllServices);

  it('ends in the same state with the same events, each step within one monitor period of upstream\'s', async () => {
    const upstream = startUpstream(stack, { controllers: 'node-lifecycle-controller,taint-eviction-controller', qps: 100, burst: 100, flags: PERIODS });
    let theirs: Outcome;
    try {
      theirs = await nodeDeath('upstream');
    } finally {
      await upstream.stop();
    }
    await startService('watcher', [...bus, '--kubeconfig', stack.kubeconfigs.watcher, '--partitions', '3']);
    await startService('writer', [...bus, '--kubeconfig', stack.kubeconfigs.writer, '--partitions', '3', '--kube-api-qps', '100', '--kube-api-burst', '100']);
    await startService('reconciler-node', [...bus, ...PERIODS]);
    const ours = await nodeDeath('kcm-bus');
    console.log(JSON.stringify({ upstream: theirs.seconds, kcmBus: ours.seconds }));
    const { seconds: s1, ...state1 } = theirs;
    const { seconds: s2, ...state2 } = ours;
    assert.deepEqual(state2, state1);
    for (const step of Object.keys(s1)) assert.ok(Math.abs((s2[step] ?? 0) - (s1[step] ?? 0)) <= MONITOR_PERIOD_S, `${step}: kcm-bus ${s2[step]} s, upstream ${s1[step]} s`);
  });
});
