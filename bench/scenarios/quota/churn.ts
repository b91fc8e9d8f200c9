/** S17's churn: a namespace's pods under 3 quotas, and the time from each delete or terminal turn to `used` right. */
import { waitFor } from '@kcm-bus/harness/wait.ts';
import { value } from '@kcm-bus/k8s/quantity.ts';
import { tryParseQuantity } from '@kcm-bus/k8s/quantity-parse.ts';
import { follow } from '../../lib/follow.ts';

/** QUOTAS are the namespace's quotas: all pods, the NotBestEffort ones' compute resources, the BestEffort ones. */
export const QUOTAS = [
  { metadata: { name: 'pods' }, spec: { hard: { pods: '5000' } } },
  {
    metadata: { name: 'compute' },
    spec: {
      scopes: ['NotBestEffort'],
      hard: {
        pods: '5000',
        'requests.cpu': '100',
        'requests.memory': '100Gi',
        'limits.cpu': '200',
        'limits.memory': '200Gi',
      },
    },
  },
  { metadata: { name: 'besteffort' }, spec: { scopes: ['BestEffort'], hard: { pods: '5000' } } },
] as const;

/** podOf is the i-th pod: every other one burstable, the rest BestEffort; none is scheduled (no kubelet acts on it). */
export function podOf(i: number): object {
  const resources =
    i % 2 === 0 ? { requests: { cpu: '10m', memory: '16Mi' }, limits: { cpu: '20m', memory: '32Mi' } } : {};
  return {
    metadata: { name: `p-${i}` },
    spec: {
      schedulerName: 'kcm-bus-bench-none',
      terminationGracePeriodSeconds: 0,
      containers: [{ name: 'c', image: 'x', resources }],
    },
  };
}

type QuotaSeen = {
  readonly metadata: { readonly name: string; readonly resourceVersion?: string };
  readonly status?: { used?: Record<string, string> };
};

/** QuotaWatch is a user's watch of the namespace's quotas. */
export type QuotaWatch = {
  /**
   * expect arms a wait for the quotas to count `pods` (the `pods` quota, and the scoped quotas together): it resolves
   * with the delivery time of the first event after it that shows them so. Arm it before the change it waits for.
   */
  readonly expect: (pods: number, timeoutMs: number) => Promise<number>;
  readonly stop: () => void;
};

/** watchQuotas follows the namespace's quotas as a user's client does (a count of 1000 reads `1k`). */
export function watchQuotas(kubeconfig: string, ns: string): QuotaWatch {
  const used = new Map<string, number>();
  let armed: { readonly pods: number; readonly hit: (at: number) => void } | undefined;
  const right = (pods: number): boolean =>
    used.get('pods') === pods && (used.get('compute') ?? 0) + (used.get('besteffort') ?? 0) === pods;
  const watch = follow<QuotaSeen>(kubeconfig, `/api/v1/namespaces/${ns}/resourcequotas`, (_, q, at) => {
    const pods = tryParseQuantity(q.status?.used?.['pods'] ?? '');
    used.set(q.metadata.name, pods === undefined ? NaN : Number(value(pods)));
    if (armed !== undefined && right(armed.pods)) armed.hit(at);
  });
  return {
    expect: async (pods, timeoutMs) => {
      let hitAt: number | undefined;
      armed = { pods, hit: (at) => (hitAt ??= at) };
      if (right(pods)) hitAt = Date.now();
      const counted = waitFor(`quotas counting ${pods} pods`, () => (watch.check(), hitAt), {
        timeoutMs,
        intervalMs: 2,
      });
      return counted.catch((err: unknown) => {
        throw new Error(`${String(err)}; the quotas' pods seen last: ${JSON.stringify(Object.fromEntries(used))}`);
      });
    },
    stop: watch.stop,
  };
}
