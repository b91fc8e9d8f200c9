import { FakeKubelet } from './kubelet.ts';
import { type RawKube, uniqueName } from './kube.ts';
import { waitFor, waitForSteady } from './wait.ts';

type Condition = { readonly type: string; readonly status: string; readonly reason?: string };
type Obj = {
  readonly metadata: { readonly name: string; readonly deletionTimestamp?: string };
  readonly spec?: { readonly nodeName?: string; readonly taints?: readonly { key: string; effect: string }[] };
  readonly status?: { readonly phase?: string; readonly conditions?: readonly Condition[] };
};
type Event = {
  readonly involvedObject: { readonly name: string };
  readonly reason: string;
  readonly firstTimestamp?: string;
  readonly eventTime?: string;
  readonly metadata: { readonly creationTimestamp: string };
};

/** NodeDeath is what a user sees of one run of the script, its own names replaced by their roles, and when (s after the kill). */
export type NodeDeath = {
  readonly dead: { readonly conditions: readonly string[]; readonly taints: readonly string[] };
  readonly revived: { readonly ready: string | undefined; readonly taints: readonly string[] };
  readonly patientReady: string | undefined;
  readonly short: { readonly terminating: boolean; readonly disruptionTarget: string | undefined };
  readonly replacementOnLiveNode: boolean;
  readonly events: Readonly<Record<string, readonly string[]>>;
  readonly seconds: {
    readonly unknown: number;
    readonly tainted: number;
    readonly notReady: number;
    readonly evicted: number;
    readonly replaced: number;
  };
};

const taints = (o: Obj): string[] =>
  (o.spec?.taints ?? [])
    .map((t) => `${t.key}:${t.effect}`)
    .filter((t) => t.startsWith('node.kubernetes.io/'))
    .sort();
const condition = (o: Obj, type: string): Condition | undefined => o.status?.conditions?.find((c) => c.type === type);

/**
 * nodeDeath is the node failure script the differential test and bench S5 run under each system: a zone of three
 * fake kubelets; on the one that will die, a pod of an RC of 1 tolerating unreachable for `toleration` seconds
 * (`short`, adopted) and a bare pod with the apiserver's default 300 s (`patient`); the kubelet stops; the node goes
 * Unknown, is tainted, its pods NotReady, `short` evicted and replaced by its RC on a live (kwok) node; the kubelet
 * comes back and the taints go. It needs node lifecycle, taint eviction and the RC controller running.
 */
export async function nodeDeath(kube: RawKube, system: string, toleration: number): Promise<NodeDeath> {
  const ns = uniqueName(`nd-${system}`);
  const zone = uniqueName('zone');
  const kubelets = ['a', 'b', 'c'].map((r) => new FakeKubelet(kube, uniqueName(`nd${r}`), zone)) as [
    FakeKubelet,
    FakeKubelet,
    FakeKubelet,
  ];
  const dying = kubelets[2];
  const get = async (path: string): Promise<Obj> => (await kube('GET', path)) as unknown as Obj;
  const node = `/api/v1/nodes/${dying.name}`;
  const pods = `/api/v1/namespaces/${ns}/pods`;
  try {
    await kube('POST', '/api/v1/namespaces', { metadata: { name: ns } });
    for (const k of kubelets) await k.register();
    const tolerations = [
      { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: toleration },
    ];
    await kube('POST', pods, {
      metadata: { name: 'short', labels: { app: 'short' } },
      spec: { nodeName: dying.name, tolerations, containers: [{ name: 'c', image: 'nginx' }] },
    });
    await kube('POST', pods, {
      metadata: { name: 'patient' },
      spec: { nodeName: dying.name, containers: [{ name: 'c', image: 'nginx' }] },
    });
    for (const p of ['short', 'patient']) await dying.podReady(ns, p);
    await kube('POST', `/api/v1/namespaces/${ns}/replicationcontrollers`, {
      metadata: { name: 'short' },
      spec: {
        replicas: 1,
        selector: { app: 'short' },
        template: {
          metadata: { labels: { app: 'short' } },
          spec: { tolerations, containers: [{ name: 'c', image: 'nginx' }] },
        },
      },
    });
    await waitFor(
      `${system}: short adopted, every node schedulable`,
      async () =>
        ((await get(`${pods}/short`)) as { metadata: { ownerReferences?: unknown[] } }).metadata.ownerReferences
          ?.length === 1 &&
        (await Promise.all(kubelets.map(async (k) => taints(await get(`/api/v1/nodes/${k.name}`))))).every(
          (t) => t.length === 0,
        ),
      { timeoutMs: 120_000 },
    );
    await waitFor(
      `${system}: every node registered by a monitor pass`,
      () =>
        registered(
          kube,
          kubelets.map((k) => k.name),
        ),
      { timeoutMs: 120_000 },
    );
    return await judged(kube, { system, ns, dying, get, node, pods });
  } finally {
    for (const k of kubelets) await k.remove();
  }
}

/**
 * registered: every one of these nodes has its RegisteredNode event, recorded by the node lifecycle controller's
 * monitor pass when it first sees a node. A node killed before that pass would get its grace period from the pass
 * (upstream's "Missing timestamp for Node. Assuming now"), in either system: the script kills only after it.
 */
async function registered(kube: RawKube, names: readonly string[]): Promise<boolean> {
  const events = (await kube('GET', '/api/v1/namespaces/default/events?fieldSelector=reason%3DRegisteredNode'))[
    'items'
  ] as Event[];
  return names.every((name) => events.some((e) => e.involvedObject.name === name));
}

type Run = {
  readonly system: string;
  readonly ns: string;
  readonly dying: FakeKubelet;
  readonly get: (path: string) => Promise<Obj>;
  readonly node: string;
  readonly pods: string;
};

/** judged kills the kubelet, times each step a user sees, brings it back and reads the outcome. */
async function judged(kube: RawKube, r: Run): Promise<NodeDeath> {
  const { get, node, pods } = r;
  const killed = Date.now();
  r.dying.die();
  const at = async (what: string, probe: () => Promise<boolean>): Promise<number> => {
    await waitFor(`${r.system}: ${what}`, probe, { timeoutMs: 240_000, intervalMs: 200 });
    return Math.round((Date.now() - killed) / 100) / 10;
  };
  const replacement = async (): Promise<Obj | undefined> =>
    ((await kube('GET', `${pods}?labelSelector=app%3Dshort`))['items'] as Obj[]).find(
      (p) => p.metadata.name !== 'short',
    );
  const [unknown, tainted, notReady, evicted, replaced] = await Promise.all([
    at('node Unknown', async () => condition(await get(node), 'Ready')?.status === 'Unknown'),
    at('NoExecute taint', async () => taints(await get(node)).includes('node.kubernetes.io/unreachable:NoExecute')),
    at('patient NotReady', async () => condition(await get(`${pods}/patient`), 'Ready')?.status === 'False'),
    at('short evicted', async () => (await get(`${pods}/short`)).metadata.deletionTimestamp !== undefined),
    at('replacement Running', async () => (await replacement())?.status?.phase === 'Running'),
  ]);
  const deadNode = await get(node);
  const dead = {
    conditions: (deadNode.status?.conditions ?? []).map((c) => `${c.type}=${c.status}/${c.reason ?? ''}`).sort(),
    taints: taints(deadNode),
  };
  await r.dying.revive();
  await waitFor(
    `${r.system}: node back and untainted`,
    async () => {
      const n = await get(node);
      return condition(n, 'Ready')?.status === 'True' && taints(n).length === 0;
    },
    { timeoutMs: 120_000 },
  );
  const [revivedNode, short, patient, moved] = [
    await get(node),
    await get(`${pods}/short`),
    await get(`${pods}/patient`),
    await replacement(),
  ];
  return {
    dead,
    revived: { ready: condition(revivedNode, 'Ready')?.status, taints: taints(revivedNode) },
    patientReady: condition(patient, 'Ready')?.status,
    short: {
      terminating: short.metadata.deletionTimestamp !== undefined,
      disruptionTarget: condition(short, 'DisruptionTarget')?.reason,
    },
    replacementOnLiveNode: moved?.spec?.nodeName !== undefined && moved.spec.nodeName !== r.dying.name,
    events: await steadyEvents(kube, r),
    seconds: { unknown, tainted, notReady, evicted, replaced },
  };
}

/**
 * steadyEvents are the run's events once three polls a second apart agree. The last ones (the patient's cancelled
 * eviction, TaintManagerEviction, recorded when the taints go) are recorded asynchronously in both systems, and
 * kcm-bus's after one more trip through Kafka: read at once when the taints are seen gone, they may not be there yet.
 */
function steadyEvents(kube: RawKube, r: Run): Promise<Record<string, string[]>> {
  return waitForSteady(
    `${r.system}: events`,
    () => eventsOf(kube, r.ns, { [r.dying.name]: 'dying node', short: 'short', patient: 'patient' }),
    () => true,
    { timeoutMs: 60_000 },
  );
}

/** eventsOf lists, per role, the reasons of the events about that object in the order they first happened (RegisteredNode aside). */
async function eventsOf(
  kube: RawKube,
  ns: string,
  roles: Readonly<Record<string, string>>,
): Promise<Record<string, string[]>> {
  const items = [
    ...((await kube('GET', `/api/v1/namespaces/${ns}/events`))['items'] as Event[]),
    ...((await kube('GET', '/api/v1/namespaces/default/events'))['items'] as Event[]),
  ];
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
