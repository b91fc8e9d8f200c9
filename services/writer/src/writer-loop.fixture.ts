/** The writer loop's test harness: a loop on a fake bus, batches of encoded mutations, and a wait. */
import assert from 'node:assert/strict';
import type { Bus, BusBatch, GroupOptions } from '@kcm-bus/runtime/bus/index.ts';
import { AvroCodec } from '@kcm-bus/runtime/codec/codec.avro.ts';
import { Serde } from '@kcm-bus/runtime/codec/index.ts';
import type { MutationResult, Mutation } from '@kcm-bus/runtime/mutation/index.ts';
import { aMutation } from '@kcm-bus/runtime/mutation/mutation.fixture.ts';
import type { SchemaRegistry } from '@kcm-bus/runtime/registry/index.ts';
import { jsonLogger } from '@kcm-bus/runtime/service/index.ts';
import { UNSIGNED } from '@kcm-bus/runtime/signing/index.ts';
import { realScheduler } from '@kcm-bus/runtime/workqueue/index.ts';
import { loadMutationSchemas, MUTATION_TOPICS } from '@kcm-bus/schemas/mutation-schemas.fs.ts';
import { resultOf } from './result.ts';
import { startWriterLoop, type WriterLoop } from './writer-loop.ts';

const schemas = loadMutationSchemas();
/** registry knows the two schemas of the writer's topics: id 1 for mutations, 2 for results. */
const registry: SchemaRegistry = {
  register: async (subject) => (subject === `${MUTATION_TOPICS.mutations}-value` ? 1 : 2),
  schemaById: async (id) => (id === 1 ? schemas.mutation : schemas.result),
  setCompatibility: async () => undefined,
};
const encode = async (m: Mutation): Promise<Buffer> =>
  (await new Serde(registry, MUTATION_TOPICS.mutations, schemas.mutation, (s) => new AvroCodec(s)).encode(m)).bytes;
/** applied is the Applied result of a mutation, as the apiserver's answer to its request would make it. */
export const applied = (m: Mutation): MutationResult =>
  resultOf(
    m,
    m.target.name,
    { type: 'Final', outcome: 'Applied', status: 200, reason: null, message: '', uid: 'u', resourceVersion: '1' },
    1,
    'now',
  );

/** Harness is a writer loop on a fake bus: the group options it joined with, its commits, what it applied, fatal calls. */
export type Harness = {
  loop: WriterLoop;
  group: GroupOptions;
  commits: string[];
  applied: string[];
  fatal: string[];
  stopping: AbortController;
};

/** given starts a writer loop on a fake bus that applies each mutation with `apply`, up to `concurrency` at once. */
export async function given(
  apply: (m: Mutation, signal: AbortSignal) => Promise<MutationResult> = async (m) => applied(m),
  concurrency = 1,
): Promise<Harness> {
  const h = {
    commits: [] as string[],
    applied: [] as string[],
    fatal: [] as string[],
    stopping: new AbortController(),
  };
  let group: GroupOptions | undefined;
  const bus = {
    ensureTopics: async () => new Map(),
    publisher: async () => ({
      send: async () => undefined,
      sendTopics: async () => undefined,
      close: async () => undefined,
    }),
    joinGroup: async (o: GroupOptions) => {
      group = o;
      return {
        joined: () => true,
        commit: async (c: readonly { partition: number; offset: string }[]) =>
          void h.commits.push(...c.map((x) => `${x.partition}@${x.offset}`)),
        stop: async () => undefined,
      };
    },
  } as unknown as Bus;
  const loop = await startWriterLoop({
    bus,
    registry,
    concurrency,
    partitions: 2,
    retentionMs: 1000,
    log: jsonLogger('test', { sink: () => undefined }),
    metrics: { result: () => undefined, deadLetter: () => undefined },
    fatal: (what) => void h.fatal.push(what),
    signal: h.stopping.signal,
    scheduler: realScheduler,
    now: () => 'now',
    signing: UNSIGNED,
    apply: (m) => (h.applied.push(m.target.name), apply(m, h.stopping.signal)),
  });
  return { ...h, loop, group: group! };
}

/** batchOf is a batch of kcm.mutations from `offset` on: a Delete of each named pod, keyed by its name. */
export async function batchOf(partition: number, offset: number, ...names: string[]): Promise<BusBatch> {
  return batchOfMutations(
    partition,
    offset,
    names.map((name) => aMutation({ id: name, target: { ...aMutation().target, name } })),
  );
}

/** batchOfMutations is a batch of kcm.mutations from `offset` on: the mutations, each keyed by its target's name. */
export async function batchOfMutations(
  partition: number,
  offset: number,
  mutations: readonly Mutation[],
): Promise<BusBatch> {
  const records = await Promise.all(
    mutations.map(async (m, i) => ({
      key: Buffer.from(m.target.name),
      value: await encode(m),
      offset: String(offset + i),
      timestamp: '0',
      headers: {},
    })),
  );
  return { topic: MUTATION_TOPICS.mutations, partition, records, lastOffset: String(offset + mutations.length - 1) };
}

/** assignment is an assignment of the given partitions of kcm.mutations, as onAssigned is told it. */
export const assignment = (...partitions: number[]) =>
  partitions.map((partition) => ({ topic: MUTATION_TOPICS.mutations, partition, low: '0', high: '0' }));
/** noHeartbeat is a batch's heartbeat that does nothing. */
export const noHeartbeat = async (): Promise<void> => undefined;

/** eventually waits (real time, 10 s at most) until pred holds. */
export async function eventually(what: string, pred: () => boolean): Promise<void> {
  for (const t0 = Date.now(); !pred() && Date.now() - t0 < 10_000;) await new Promise((r) => setTimeout(r, 10));
  assert.ok(pred(), `never happened: ${what}`);
}
