import type { RawKube } from '@kcm-bus/harness/kube.ts';

/** NODE_TAINTS are the taints node lifecycle puts on a node it found unhealthy; the bench's kwok nodes never are. */
export const NODE_TAINTS: ReadonlySet<string> = new Set([
  'node.kubernetes.io/unreachable',
  'node.kubernetes.io/not-ready',
]);

/**
 * TaintSpan is one node lifecycle taint as the polls saw it: from its first sighting to the first poll without it
 * (undefined: still there), in seconds from the timeline's start, and how old the node's Lease renewal was when the
 * taint was first seen: the newest renewal the API had at the poll before (a renewal made in between may have come
 * after the taint). Older than the grace period (50 s) is a node whose renewals did not reach the API, a correct
 * mark; younger is a node marked while its renewals were arriving, a wrong one. Precise to one poll interval.
 */
export type TaintSpan = {
  readonly node: string;
  readonly key: string;
  readonly fromS: number;
  readonly toS: number | undefined;
  readonly leaseAgeS: number | undefined;
};

/** OpenSpan is a span the timeline still extends. */
type OpenSpan = { -readonly [K in keyof TaintSpan]: TaintSpan[K] };

type NodeJson = {
  readonly metadata: { readonly name: string };
  readonly spec?: { readonly taints?: readonly { readonly key: string; readonly effect?: string }[] };
};
type LeaseJson = { readonly metadata: { readonly name: string }; readonly spec?: { readonly renewTime?: string } };

/** taintName is a taint's key and effect (a NoSchedule taint evicts nothing, a NoExecute one may): `key:Effect`. */
function taintName(taint: { readonly key: string; readonly effect?: string }): string {
  return taint.effect === undefined ? taint.key : `${taint.key}:${taint.effect}`;
}

/**
 * TaintTimeline turns polls of the nodes and of their Leases (kube-node-lease, named as the node) into taint spans:
 * observe() takes one poll's lists with its wall-clock time. Pure: the poller (pollNodeHealth) feeds it.
 */
export class TaintTimeline {
  readonly #startedMs: number;
  readonly #spans: OpenSpan[] = [];
  readonly #open = new Map<string, OpenSpan>();
  /** #renewalsMs are the distinct renewal times seen of each node's Lease. */
  readonly #renewalsMs = new Map<string, Set<number>>();
  #previousMs: number | undefined;

  constructor(startedMs: number) {
    this.#startedMs = startedMs;
  }

  observe(atMs: number, nodes: readonly NodeJson[], leases: readonly LeaseJson[]): void {
    for (const lease of leases) {
      const renewed = Date.parse(lease.spec?.renewTime ?? '');
      const seen = this.#renewalsMs.get(lease.metadata.name) ?? new Set<number>();
      if (!Number.isNaN(renewed)) this.#renewalsMs.set(lease.metadata.name, seen.add(renewed));
    }
    const seen = new Set<string>();
    for (const node of nodes)
      for (const taint of node.spec?.taints ?? [])
        if (NODE_TAINTS.has(taint.key)) seen.add(this.#begin(atMs, node.metadata.name, taintName(taint)));
    for (const [id, span] of this.#open) {
      if (seen.has(id)) continue;
      span.toS = this.#seconds(atMs);
      this.#open.delete(id);
    }
    this.#previousMs = atMs;
  }

  /** spans are every taint seen, in the order they appeared. */
  get spans(): readonly TaintSpan[] {
    return this.#spans;
  }

  /** taintedNow is how many nodes held a node lifecycle taint at the last poll. */
  get taintedNow(): number {
    return new Set([...this.#open.values()].map((s) => s.node)).size;
  }

  #begin(atMs: number, node: string, key: string): string {
    const id = `${node} ${key}`;
    if (this.#open.has(id)) return id;
    const before = this.#previousMs ?? atMs;
    const renewals = [...(this.#renewalsMs.get(node) ?? [])].filter((r) => r <= before);
    const renewed = renewals.length === 0 ? undefined : Math.max(...renewals);
    const span: OpenSpan = {
      node,
      key,
      fromS: this.#seconds(atMs),
      toS: undefined,
      leaseAgeS: renewed === undefined ? undefined : (atMs - renewed) / 1000,
    };
    this.#spans.push(span);
    this.#open.set(id, span);
    return id;
  }

  #seconds(atMs: number): number {
    return (atMs - this.#startedMs) / 1000;
  }
}

/** NodeHealth is a running poll of the nodes' taints and Leases: its timeline, and stop(). */
export type NodeHealth = { readonly timeline: TaintTimeline; readonly stop: () => void };

/**
 * pollNodeHealth lists the nodes and their Leases every `intervalMs` into a TaintTimeline started at `startedMs`
 * (wall clock), until stopped. A poll that fails (the apiserver restarting) is skipped: the timeline learns of a
 * change at the next poll that answers.
 */
export function pollNodeHealth(kube: RawKube, startedMs: number, intervalMs = 250): NodeHealth {
  const timeline = new TaintTimeline(startedMs);
  let timer: NodeJS.Timeout | undefined,
    stopped = false;
  const poll = async (): Promise<void> => {
    const [nodes, leases] = await Promise.all([
      kube('GET', '/api/v1/nodes'),
      kube('GET', '/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases'),
    ]);
    timeline.observe(Date.now(), nodes['items'] as NodeJson[], leases['items'] as LeaseJson[]);
  };
  const next = (): void => {
    if (!stopped)
      timer = setTimeout(
        () =>
          void poll()
            .catch(() => undefined)
            .finally(next),
        intervalMs,
      );
  };
  next();
  return {
    timeline,
    stop: () => {
      stopped = true;
      clearTimeout(timer);
    },
  };
}
