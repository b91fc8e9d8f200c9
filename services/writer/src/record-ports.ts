import { AvroCodec } from '@kcm-bus/runtime/codec/codec.avro.ts';
import { Serde } from '@kcm-bus/runtime/codec/index.ts';
import { deadLetterHeaders, RecordGuard } from '@kcm-bus/runtime/faults/index.ts';
import type { MutationResult, Mutation } from '@kcm-bus/runtime/mutation/index.ts';
import type { SchemaRegistry } from '@kcm-bus/runtime/registry/index.ts';
import type { Logger } from '@kcm-bus/runtime/service/index.ts';
import type { Signing } from '@kcm-bus/runtime/signing/index.ts';
import type { Scheduler } from '@kcm-bus/runtime/workqueue/index.ts';
import { loadMutationSchemas, MUTATION_TOPICS } from '@kcm-bus/schemas/mutation-schemas.fs.ts';
import { abortableSleep } from './backoff.ts';
import { LruCache } from './lru-cache.ts';
import { checkFits, fitDeadLetter, type Outbox } from './outbox.ts';
import type { ConsumedMutation, RecordPorts } from './process-record.ts';
import type { WriterMetrics } from './writer-metrics.prom.ts';

/** GROUP_ID is the writer's consumer group, and the consumer its dead letters name. */
export const GROUP_ID = 'kcm-bus-writer';

/** RecordPortsOptions are what handling records needs of the writer: the registry, apply, metrics, log and clocks. */
export type RecordPortsOptions = {
  readonly registry: SchemaRegistry;
  readonly apply: (m: Mutation) => Promise<MutationResult>;
  readonly log: Logger;
  readonly metrics: WriterMetrics;
  /** signal aborts when the writer stops: waits between retries end at once, their records are abandoned. */
  readonly signal: AbortSignal;
  readonly scheduler: Scheduler;
  /** now is the wall clock (RFC 3339) of the results the writer makes itself. */
  readonly now: () => string;
  /** signing verifies that each mutation's controller signed it, and signs the results as the writer. */
  readonly signing: Signing;
};

/** LOGGED_REFUSALS bounds the kinds of refusal (controller, verb, reason) the writer remembers having logged. */
const LOGGED_REFUSALS = 1024;

/**
 * recordGuard is the runtime's RecordGuard over kcm.mutations: poison records go to kcm.mutations.dlq (cut to fit
 * the broker's limit) and are counted in kcm_bus_dead_letters_total; waits between retries of a transient fault
 * end at once when the writer stops.
 */
export function recordGuard(o: RecordPortsOptions, outbox: Outbox): RecordGuard {
  return new RecordGuard({
    deadLetter: (source, record, reason) =>
      outbox.push({
        topic: MUTATION_TOPICS.deadLetters,
        record: fitDeadLetter({
          key: record.key?.toString() ?? '',
          value: record.value,
          headers: deadLetterHeaders(source, reason, GROUP_ID),
        }),
      }),
    counted: (source) => o.metrics.deadLetter(source.topic),
    log: o.log,
    sleep: (ms) => abortableSleep(ms, o.scheduler, o.signal),
  });
}

/** recordPorts are processRecord's ports, built once per writer: the serdes of both topics, the guard, the outbox. */
export function recordPorts(o: RecordPortsOptions, outbox: Outbox, guard: RecordGuard): RecordPorts {
  const schemas = loadMutationSchemas();
  const codec = (s: object): AvroCodec => new AvroCodec(s);
  const mutations = new Serde(o.registry, MUTATION_TOPICS.mutations, schemas.mutation, codec);
  const results = new Serde(o.registry, MUTATION_TOPICS.results, schemas.result, codec);
  const logRefused = refusalLog(o);
  return {
    guarded: guardedBy(guard),
    decode: async (bytes) => (await mutations.decode(bytes)).value,
    verify: (record, m) =>
      o.signing.verify(m.controller, {
        key: record.record.key?.toString() ?? '',
        value: record.record.value ?? Buffer.alloc(0),
        headers: record.record.headers,
      }),
    apply: o.apply,
    encodeResult: async (record, result) => {
      const value = (await results.encode(result)).bytes;
      checkFits({ topic: MUTATION_TOPICS.results, record: { key: record.key, value } });
      return value;
    },
    publishResult: async (record, result, value) => {
      o.metrics.result(result);
      if (result.outcome === 'Refused') logRefused(result);
      // A write the API server failed is the controller's to report (its event, its backoff); the line leads to trace.
      if (result.outcome === 'Failed') o.log.info('mutation failed', resultLogLine(result));
      await outbox.push({
        topic: MUTATION_TOPICS.results,
        record: { key: record.key, value, headers: o.signing.headers(record.key, value) },
      });
    },
    now: o.now,
  };
}

/**
 * guardedBy runs one step of a kcm.mutations record under the guard and answers its value, or undefined when the
 * guard sent the record to the dead-letter topic.
 */
export function guardedBy(guard: RecordGuard): RecordPorts['guarded'] {
  return async <T>(record: ConsumedMutation, step: () => Promise<T>): Promise<T | undefined> => {
    const out: { value?: T } = {};
    const source = { topic: MUTATION_TOPICS.mutations, partition: record.partition, offset: String(record.offset) };
    // The batch's own interval keeps the membership alive; a heartbeat here would fail the step during a rebalance.
    await guard.handle(
      source,
      record.record,
      async () => void (out.value = await step()),
      () => Promise.resolve(),
    );
    return out.value;
  };
}

/** refusalLog logs a refusal once per kind (controller, verb, reason), not once per record; the metric counts each. */
function refusalLog(o: RecordPortsOptions): (result: MutationResult) => void {
  const logged = new LruCache<string, true>(LOGGED_REFUSALS);
  return (r) => {
    const kind = JSON.stringify([r.controller, r.verb, r.reason]);
    if (logged.get(kind)) return;
    logged.add(kind, true);
    o.log.warn('mutation refused (logged once per controller, verb and reason)', resultLogLine(r));
  };
}

/** resultLogLine is what a log line says of a result: enough to find the mutation (id, reconcile key) and what happened. */
export function resultLogLine(r: MutationResult): Record<string, unknown> {
  const target = `${r.target.resource} ${r.target.namespace ? `${r.target.namespace}/` : ''}${r.name ?? r.target.name}`;
  return {
    mutationId: r.mutationId,
    reconcileKey: r.reconcileKey,
    controller: r.controller,
    verb: r.verb,
    target,
    status: r.status,
    reason: r.reason,
    message: r.message,
  };
}
