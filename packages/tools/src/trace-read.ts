import type { MutationResult, Mutation, MutationCause } from '@kcm-bus/runtime/mutation/index.ts';
import { MUTATION_TOPICS } from '@kcm-bus/schemas/mutation-schemas.fs.ts';
import { WATCHED_KINDS, type WatchedKind } from '@kcm-bus/schemas/kinds.ts';
import type { WatchRecord } from '@kcm-bus/schemas/watch-record.ts';
import type { Version } from './history-format.ts';
import { RECONCILED_KINDS } from './explain.ts';
import { readVersions } from './history.ts';
import type { Json } from './object-diff.ts';
import { causeRef, watchedKindOf, type InputRecord, type TraceFound } from './trace-chain.ts';
import { keyPartition, scanKeys, scanPartition, type Scanner } from './topic-scan.ts';

/**
 * readTrace reads what trace explains, one partition per topic wherever the key decides it (every kcm-bus producer
 * places records by the namespace of their key): the mutations keyed by the object, their results, the records their
 * causes name (results and state records at their offsets), and the history of the object and of each cause's object.
 */
export async function readTrace(s: Scanner, kind: WatchedKind, key: string): Promise<TraceFound> {
  const mutations: { partition: number; offset: string; mutation: Mutation }[] = [];
  await scanKeys(s, MUTATION_TOPICS.mutations, [key], async (record, partition) => {
    if (record.value !== null)
      mutations.push({ partition, offset: record.offset, mutation: (await s.decode(record.value)) as Mutation });
  });
  const causes = mutations.flatMap((m) => m.mutation.cause);
  const { results, causeResults } = await readResults(s, key, causes);
  const inputs = await readInputs(
    s,
    causes.filter((c) => watchedKindOf(c.topic) !== undefined),
  );
  const wanted = new Map<WatchedKind, Set<string>>([[kind, new Set([key])]]);
  const want = (k: WatchedKind | undefined, key: string | null | undefined): void => {
    if (k !== undefined && key != null) wanted.set(k, (wanted.get(k) ?? new Set()).add(key));
  };
  for (const c of causes) want(watchedKindOf(c.topic), inputs.get(causeRef(c))?.key ?? c.key);
  for (const { mutation: m } of mutations)
    want(
      WATCHED_KINDS.find((k) => k.plural === RECONCILED_KINDS[m.controller]),
      m.reconcileKey,
    );
  const histories = new Map<string, Map<string, Version[]>>();
  for (const [k, keys] of wanted) histories.set(k.plural, await readVersions(s, k, keys));
  return { mutations, results, causeResults, inputs, histories };
}

/**
 * readResults reads kcm.mutation-results where it can hold the answers: the key's partition (results are keyed like
 * their mutation) for the mutations' results, and the partitions of result causes at their offsets.
 */
async function readResults(
  s: Scanner,
  key: string,
  causes: readonly MutationCause[],
): Promise<Pick<TraceFound, 'results' | 'causeResults'>> {
  const topic = MUTATION_TOPICS.results;
  const offsets = offsetsByPartition(causes.filter((c) => c.topic === topic));
  const own = keyPartition(key, (await s.bus.offsets(topic)).length);
  const keyBytes = Buffer.from(key);
  const results = new Map<string, MutationResult>();
  const causeResults = new Map<string, MutationResult>();
  for (const partition of new Set([own, ...offsets.keys()])) {
    const at = offsets.get(partition) ?? new Set<bigint>();
    await scanPartition(
      s,
      topic,
      partition,
      (k, offset) => (partition === own && k !== null && keyBytes.equals(k)) || at.has(offset),
      async (record) => {
        if (record.value === null) return;
        const result = (await s.decode(record.value)) as MutationResult;
        if (record.key !== null && keyBytes.equals(record.key)) results.set(result.mutationId, result);
        if (at.has(BigInt(record.offset))) causeResults.set(`${partition}@${record.offset}`, result);
      },
    );
  }
  return { results, causeResults };
}

/** readInputs reads the watch and state records the causes name, each partition once, only at those offsets. */
async function readInputs(s: Scanner, causes: readonly MutationCause[]): Promise<Map<string, InputRecord>> {
  const inputs = new Map<string, InputRecord>();
  for (const topic of new Set(causes.map((c) => c.topic))) {
    for (const [partition, at] of offsetsByPartition(causes.filter((c) => c.topic === topic))) {
      await scanPartition(
        s,
        topic,
        partition,
        (_, offset) => at.has(offset),
        async (record) => {
          if (record.value === null || record.key === null) return;
          const v = (await s.decode(record.value)) as WatchRecord<Json>;
          if (v.type === 'Watermark') return;
          inputs.set(causeRef({ topic, partition, offset: Number(record.offset) }), {
            key: record.key.toString(),
            topic,
            partition,
            offset: record.offset,
            timestamp: Number(record.timestamp),
            observedAt: v.observedAt,
            resourceVersion: v.resourceVersion,
            type: v.type,
            object: v.object,
          });
        },
      );
    }
  }
  return inputs;
}

function offsetsByPartition(causes: readonly MutationCause[]): Map<number, Set<bigint>> {
  const out = new Map<number, Set<bigint>>();
  for (const c of causes) out.set(c.partition, (out.get(c.partition) ?? new Set()).add(BigInt(c.offset)));
  return out;
}
