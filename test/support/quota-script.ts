import { podSucceeded, setQuotaHard } from '@kcm-bus/harness/quota.ts';
import { waitFor } from '@kcm-bus/harness/wait.ts';
import { DELETED, OBJECTS, QUOTAS, type Status, USED, type Used } from './quota-content.ts';
import { rawKube, uniqueName } from './stack.ts';

/*
 * The quota differential's script: what it does to a namespace, step by step, and how it reads the quotas' status.
 */

const kube = rawKube();

/** at is a collection's or an object's path (`api/v1/pods/p`) in the namespace. */
export const at = (ns: string, path: string): string =>
  `/${path.replace(/^(api\/v1|apis\/[^/]+\/[^/]+)\//, `$1/namespaces/${ns}/`)}`;

/** statuses are the namespace's quotas' status, by name. */
export async function statuses(ns: string): Promise<Record<string, Status>> {
  const items = (await kube('GET', at(ns, 'api/v1/resourcequotas')))['items'] as {
    metadata: { name: string };
    status?: Status;
  }[];
  return Object.fromEntries(items.map((q) => [q.metadata.name, q.status ?? {}]));
}

/** BUCKETS_MS bound how soon a step's status is right: under 1 s, 2 s, 5 s, 10 s, 30 s, or later. */
const BUCKETS_MS = [1000, 2000, 5000, 10_000, 30_000];
/** bucketIndex is the place of a bucket among BUCKETS_MS (their count: later than all). */
export const bucketIndex = (soon: string): number => {
  const i = BUCKETS_MS.findIndex((b) => soon === `≤${b / 1000}s`);
  return i < 0 ? BUCKETS_MS.length : i;
};
const bucket = (ms: number): string => `≤${(BUCKETS_MS.find((b) => ms <= b) ?? Infinity) / 1000}s`;

/** settled waits until the quotas' statuses are those `done` accepts and says how soon (bucketed). */
export async function settled(ns: string, what: string, done: (s: Record<string, Status>) => boolean) {
  const start = Date.now();
  const status = await waitFor(
    what,
    async () => {
      const s = await statuses(ns);
      return done(s) ? s : undefined;
    },
    { timeoutMs: 120_000, intervalMs: 100 },
  );
  return { status, soon: bucket(Date.now() - start) };
}

/**
 * quotaScript runs the script in a new namespace and returns each step's statuses and how soon they were right:
 * quotas created (no status: computed at once), objects created (charged by admission, recalculated), some deleted
 * (replenished), a pod turned terminal, a hard limit raised, a quota added late.
 */
export async function quotaScript(system: string): Promise<Record<string, unknown>> {
  const ns = uniqueName(`quota-${system}`);
  await kube('POST', '/api/v1/namespaces', { metadata: { name: ns } });
  await waitFor(`${ns}: kube-root-ca.crt`, () => kube('GET', `${at(ns, 'api/v1/configmaps')}/kube-root-ca.crt`));
  const steps: Record<string, unknown> = {};
  const step = async (name: string, done: (s: Record<string, Status>) => boolean) => {
    steps[name] = await settled(ns, `${system}: ${name}`, done);
  };
  for (const q of QUOTAS) await kube('POST', at(ns, 'api/v1/resourcequotas'), q);
  await step('quotas', (s) =>
    QUOTAS.every((q) => s[(q as { metadata: { name: string } }).metadata.name]?.used !== undefined),
  );
  for (const [collection, objects] of OBJECTS) for (const o of objects) await kube('POST', at(ns, collection), o);
  await step('created', usedAre(USED.created));
  for (const path of DELETED) await kube('DELETE', at(ns, path));
  await step('deleted', usedAre(USED.deleted));
  await podSucceeded(kube, ns, 'p-be1');
  await step('terminal', (s) => s['besteffort']?.used?.['pods'] === '2' && s['objects']?.used?.['pods'] === '3');
  await setQuotaHard(kube, ns, 'compute', { pods: '6', 'requests.cpu': '1500m' });
  await step('raised', (s) => s['compute']?.hard?.['pods'] === '6' && s['compute']?.hard?.['requests.cpu'] === '1500m');
  await kube('POST', at(ns, 'api/v1/resourcequotas'), {
    metadata: { name: 'late' },
    spec: { hard: { pods: '10', 'count/configmaps': '5' } },
  });
  await step('late', (s) => s['late']?.used !== undefined);
  return steps;
}

/** usedAre: every quota's used is as expected. */
const usedAre =
  (used: Used) =>
  (s: Record<string, Status>): boolean =>
    Object.entries(used).every(
      ([name, u]) => JSON.stringify(sorted(s[name]?.used ?? {})) === JSON.stringify(sorted(u)),
    );

const sorted = (r: Readonly<Record<string, string>>) =>
  Object.fromEntries(Object.entries(r).sort(([a], [b]) => a.localeCompare(b)));
