import type { StackEndpoints } from '@kcm-bus/stack/endpoints.ts';
import { MUTATION_TOPICS } from '@kcm-bus/schemas/mutation-schemas.fs.ts';
import { watchTopic } from '@kcm-bus/schemas/kinds.ts';
import type { EndpointsObject } from '@kcm-bus/harness/endpoints.ts';
import { percentile } from '../../lib/stats.ts';
import { readyNames } from '../../lib/endpoints/ready-to-endpoints.ts';
import type { Row } from '../../lib/scenario.ts';
import { type MutationValue, readTimed, type ResultValue, type Timed } from '../../lib/timed-records.ts';
import type { Replacement } from '../../lib/endpoints/runs.ts';

/** PodRecord is what S4 reads of a kcm.watch.pods record. */
type PodRecord = {
  readonly key: string;
  readonly observedAt: string;
  readonly object?: {
    readonly status?: {
      readonly podIP?: string | null;
      readonly conditions?: readonly { readonly type: string; readonly status: string }[] | null;
    } | null;
  } | null;
};

/** EndpointsMutation is what S4 reads of a Mutation: the Endpoints it writes. */
type EndpointsMutation = MutationValue & { readonly verb: string; readonly body?: string | null };

/** EndpointsRecords are one namespace's pod records, mutations and results, each topic in offset order. */
type EndpointsRecords = {
  readonly pods: readonly Timed<PodRecord>[];
  readonly mutations: readonly Timed<EndpointsMutation>[];
  readonly results: readonly Timed<ResultValue>[];
};

/** ENDPOINTS_HOPS name the intervals between a kcm-bus step's time marks (replacementHops), in order. */
export const ENDPOINTS_HOPS = [
  'client sees Ready → watcher receipt',
  'watcher → Kafka (queue, produce)',
  'Kafka → reconcile (fetch, queue, held for its own write)',
  'reconcile → Kafka (publish)',
  'writer (fetch, rate limit, PUT)',
  'PUT answered → client watch',
] as const;

/** ReplacementHops is one step's hops in ENDPOINTS_HOPS order (ms), or what is missing. */
type ReplacementHops =
  { readonly pod: string; readonly hops: readonly number[] } | { readonly pod: string; readonly missing: string };

const isReady = (r: Timed<PodRecord>): boolean =>
  Boolean(r.value.object?.status?.podIP) &&
  (r.value.object?.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');

/**
 * replacementHops finds a step's records: the pod's first Ready record, the first Endpoints mutation listing it as
 * ready, and that mutation's result; the hops are the differences of the marks readyAt, observedAt, pod record ts,
 * createdAt, mutation record ts, appliedAt, listedAt.
 */
function replacementHops(step: Replacement, ns: string, bus: EndpointsRecords): ReplacementHops {
  const pod = bus.pods.find((r) => r.value.key === `${ns}/${step.pod}` && isReady(r));
  const mutation = bus.mutations.find(
    (m) => m.value.body != null && readyNames(JSON.parse(m.value.body) as EndpointsObject).includes(step.pod),
  );
  const result = mutation && bus.results.find((r) => r.value.mutationId === mutation.value.id);
  if (!pod) return { pod: step.pod, missing: `no Ready record of ${step.pod}` };
  if (!mutation || !result) return { pod: step.pod, missing: `no applied mutation listing ${step.pod}` };
  const marks = [
    step.readyAt,
    Date.parse(pod.value.observedAt),
    pod.timestamp,
    Date.parse(mutation.value.createdAt),
    mutation.timestamp,
    Date.parse(result.value.appliedAt),
    step.listedAt,
  ];
  return { pod: step.pod, hops: marks.slice(1).map((m, i) => m - (marks[i] ?? NaN)) };
}

/** endpointsRecords reads namespace ns's records of kcm.watch.pods, kcm.mutations and kcm.mutation-results. */
async function endpointsRecords(e: StackEndpoints, ns: string): Promise<EndpointsRecords> {
  const inNs = (key: string): boolean => key.startsWith(`${ns}/`);
  const byOffset = <T>(xs: Timed<T>[]): Timed<T>[] => xs.sort((a, b) => a.offset - b.offset);
  return {
    pods: byOffset(await readTimed<PodRecord>(e, watchTopic({ plural: 'pods' }), inNs)),
    mutations: byOffset(await readTimed<EndpointsMutation>(e, MUTATION_TOPICS.mutations, inNs)),
    results: byOffset(await readTimed<ResultValue>(e, MUTATION_TOPICS.results, inNs)),
  };
}

/** endpointsHopRows are kcm-bus's S4 per-hop p50 rows (p99 in the note) over the steps whose records were all found. */
export async function endpointsHopRows(e: StackEndpoints, ns: string, steps: readonly Replacement[]): Promise<Row[]> {
  const records = await endpointsRecords(e, ns);
  const all = steps.map((s) => replacementHops(s, ns, records));
  const found = all.flatMap((h) => ('hops' in h ? [h] : []));
  const missing = all.flatMap((h) => ('missing' in h ? [h.missing] : []));
  return ENDPOINTS_HOPS.map((name, i): Row => {
    const values = found.map((h) => h.hops[i] ?? NaN);
    const extra = i === 0 ? `; ${found.length}/${all.length} steps traced${missing[0] ? `; ${missing[0]}` : ''}` : '';
    return {
      scenario: `S4 hop ${name} p50`,
      unit: 'ms',
      kcmBus: percentile(values, 50),
      note: `p99 ${percentile(values, 99)?.toFixed(0) ?? '-'} ms${extra}`,
    };
  });
}
