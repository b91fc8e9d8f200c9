/**
 * S8's pure part: one step's path from an RC replica change to the pod's creation, cut into hops from the
 * timestamps the kcm-bus records carry.
 */
import type { MutationValue, ResultValue, Timed } from '../../lib/timed-records.ts';

/** RC_TOPIC is the watch topic of ReplicationControllers: the record that starts a step's kcm-bus path. */
export const RC_TOPIC = 'kcm.watch.replicationcontrollers';

/**
 * Step is one single-step change as a client saw it: `t0` just before the PUT that raised spec.replicas to
 * `replicas`, the new pod's name, and `seenAt`, when a client watch on the namespace delivered its ADDED (ms).
 */
export type Step = { readonly replicas: number; readonly t0: number; readonly pod: string; readonly seenAt: number };

/** RcEvent is what S8 reads of an RC watch record. */
export type RcEvent = {
  readonly type: string;
  readonly observedAt: string;
  readonly object?: { readonly spec?: { readonly replicas?: number | null } } | null;
};

/** BusRecords are one namespace's records on the three topics a step crosses (the RC's key only on RC_TOPIC). */
export type BusRecords = {
  readonly rcs: readonly Timed<RcEvent>[];
  readonly mutations: readonly Timed<MutationValue>[];
  readonly results: readonly Timed<ResultValue>[];
};

/**
 * HOPS name the intervals between a step's consecutive time marks (stepHops), in order. A record's Kafka timestamp
 * is the producer's clock when kafkajs builds the Produce request: for the watcher's transactions after
 * AddPartitionsToTxn and before the commit, so the commit falls in the hop after it.
 */
export const HOPS = [
  'watcher (PUT → watcher receipt)',
  'watcher → Kafka (queue, produce)',
  'Kafka → reconciler (commit, fetch, queue, Redis)',
  'reconciler → Kafka (reconcile, Redis, publish)',
  'writer (fetch, rate limit, POST)',
  'POST answered → client watch ADDED',
] as const;

/** StepHops is one step's hops in HOPS order (ms), whether the mutation names the RC record as its cause, or what is missing. */
export type StepHops =
  | {
      readonly replicas: number;
      readonly pod: string;
      readonly hops: readonly number[];
      readonly causedByRcRecord: boolean;
    }
  | { readonly replicas: number; readonly missing: string };

/**
 * stepHops finds a step's records: the first RC record whose spec.replicas is the step's value, the Create
 * result naming the step's pod, and that result's mutation; the hops are the differences of the marks
 * t0, observedAt, RC record ts, createdAt, mutation record ts, appliedAt, seenAt.
 */
export function stepHops(step: Step, bus: BusRecords): StepHops {
  const rc = [...bus.rcs]
    .sort((a, b) => a.offset - b.offset)
    .find((r) => r.value.type === 'Applied' && r.value.object?.spec?.replicas === step.replicas);
  const result = bus.results.find((r) => r.value.verb === 'Create' && r.value.name === step.pod);
  const mutation = result && bus.mutations.find((m) => m.value.id === result.value.mutationId);
  if (!rc) return { replicas: step.replicas, missing: `no ${RC_TOPIC} record with spec.replicas=${step.replicas}` };
  if (!result) return { replicas: step.replicas, missing: `no Create result naming pod ${step.pod}` };
  if (!mutation) return { replicas: step.replicas, missing: `no mutation ${result.value.mutationId}` };
  const marks = [
    step.t0,
    Date.parse(rc.value.observedAt),
    rc.timestamp,
    Date.parse(mutation.value.createdAt),
    mutation.timestamp,
    Date.parse(result.value.appliedAt),
    step.seenAt,
  ];
  const causedByRcRecord = mutation.value.cause.some(
    (c) => c.topic === RC_TOPIC && c.partition === rc.partition && c.offset === rc.offset,
  );
  return {
    replicas: step.replicas,
    pod: step.pod,
    hops: marks.slice(1).map((m, i) => m - (marks[i] ?? NaN)),
    causedByRcRecord,
  };
}

/** latency is a step's end-to-end figure: from just before the PUT to the client watch's ADDED (ms). */
export function latency(step: Step): number {
  return step.seenAt - step.t0;
}
