import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Bus, BusBatch, GroupOptions } from '@kcm-bus/runtime/bus/index.ts';
import { AvroCodec } from '@kcm-bus/runtime/codec/codec.avro.ts';
import { Serde } from '@kcm-bus/runtime/codec/index.ts';
import type { MutationResult, Mutation } from '@kcm-bus/runtime/mutation/index.ts';
import { aMutation } from '@kcm-bus/runtime/mutation/mutation.fixture.ts';
import type { SchemaRegistry } from '@kcm-bus/runtime/registry/index.ts';
import { jsonLogger } from '@kcm-bus/runtime/service/index.ts';
import { realScheduler } from '@kcm-bus/runtime/workqueue/index.ts';
import { loadMutationSchemas, MUTATION_TOPICS } from '@kcm-bus/schemas/mutation-schemas.fs.ts';
import { abortableSleep } from './backoff.ts';
import { AbandonedError } from './executor.ts';
import { UNSIGNED } from '@kcm-bus/runtime/signing/index.ts';
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
const applied = (m: Mutation): MutationResult =>
  resultOf(
    m,
    m.target.name,
    { type: 'Final', outcome: 'Applied', status: 200, reason: null, message: '', uid: 'u', resourceVersion: '1' },
    1,
    'now',
  );

/** Harness is a writer loop on a fake bus: the group options it joined with, its commits, what it applied, fatal calls. */
type Harness = {
  loop: WriterLoop;
  group: GroupOptions;
  commits: string[];
  applied: string[];
  fatal: string[];
  stopping: AbortController;
};

async function given(
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

async function batchOf(partition: number, offset: number, ...names: string[]): Promise<BusBatch> {
  const records = await Promise.all(
    names.map(async (name, i) => ({
      key: Buffer.from(name),
      value: await encode(aMutation({ id: name, target: { ...aMutation().target, name } })),
      offset: String(offset + i),
      timestamp: '0',
      headers: {},
    })),
  );
  return { topic: MUTATION_TOPICS.mutations, partition, records, lastOffset: String(offset + names.length - 1) };
}
const assignment = (...partitions: number[]) =>
  partitions.map((partition) => ({ topic: MUTATION_TOPICS.mutations, partition, low: '0', high: '0' }));
const noHeartbeat = async (): Promise<void> => undefined;

describe('writer loop: probes tell the truth', () => {
  it('given a member, then ready only once assigned, not ready again after a crash until the next join, unhealthy once dead for good', async () => {
    const h = await given();
    assert.equal(h.loop.notReady(), 'joining the kcm-bus-writer group');
    await h.group.onAssigned?.(assignment(0, 1));
    assert.equal(h.loop.notReady(), undefined);
    h.group.onCrash(new Error('broker gone'), true);
    assert.equal(h.loop.notReady(), 'joining the kcm-bus-writer group');
    assert.equal(h.loop.healthy(), true);
    h.group.onCrash(new Error('broker gone'), false);
    assert.deepEqual([h.loop.healthy(), h.fatal], [false, ['the consumer crashed and will not restart']]);
  });
});

/** eventually waits (real time, 10 s at most) until pred holds. */
async function eventually(what: string, pred: () => boolean): Promise<void> {
  for (const t0 = Date.now(); !pred() && Date.now() - t0 < 10_000;) await new Promise((r) => setTimeout(r, 10));
  assert.ok(pred(), `never happened: ${what}`);
}

describe('writer loop: at-least-once without holes', () => {
  it('given a batch fetched again while its records are still outstanding, then each is applied once and committed', async () => {
    const { promise: released, resolve: release } = Promise.withResolvers<void>();
    const h = await given(async (m) => released.then(() => applied(m)));
    await h.group.onAssigned?.(assignment(0));
    const batch = await batchOf(0, 5, 'a', 'b');
    await h.group.onBatch(batch, noHeartbeat);
    await h.group.onBatch(batch, noHeartbeat);
    release();
    await eventually('the commit past b', () => h.commits.includes('0@7'));
    assert.deepEqual([h.applied, h.commits, h.fatal], [['a', 'b'], ['0@7'], []]);
  });

  it('given a batch redelivered after it was done (a commit that did not land), then it is applied again', async () => {
    const h = await given();
    await h.group.onAssigned?.(assignment(0));
    const batch = await batchOf(0, 5, 'a', 'b');
    await h.group.onBatch(batch, noHeartbeat);
    await eventually('the first delivery done', () => h.applied.length === 2);
    await h.group.onBatch(batch, noHeartbeat);
    await eventually('the second delivery done', () => h.applied.length === 4);
    assert.deepEqual([h.applied, h.commits, h.fatal], [['a', 'b', 'a', 'b'], ['0@7'], []]);
  });

  it('given a batch still being applied, then what is done of it is committed meanwhile (a writer killed in it re-applies only the rest)', async () => {
    const { promise: released, resolve: release } = Promise.withResolvers<void>();
    const h = await given(async (m) => (m.target.name === 'b' ? released.then(() => applied(m)) : applied(m)));
    await h.group.onAssigned?.(assignment(0));
    await h.group.onBatch(await batchOf(0, 5, 'a', 'b'), noHeartbeat);
    await eventually('the commit of a', () => h.commits.includes('0@6'));
    assert.deepEqual(h.commits, ['0@6'], 'a is done and b is not: the commit stops before b');
    release();
    await eventually('the commit of b', () => h.commits.includes('0@7'));
    assert.deepEqual([h.commits, h.fatal], [['0@6', '0@7'], []]);
  });

  it('given a partition lost in a rebalance, then its queued records are not applied and not committed', async () => {
    let release: () => void = () => undefined;
    const h = await given((m) => new Promise((resolve) => (release = () => resolve(applied(m)))));
    await h.group.onAssigned?.(assignment(0, 1));
    await h.group.onBatch(await batchOf(1, 0, 'k'), noHeartbeat);
    await h.group.onBatch(await batchOf(0, 0, 'l1', 'l2'), noHeartbeat);
    await h.group.onAssigned?.(assignment(1));
    release();
    await eventually('the commit of the kept partition', () => h.commits.includes('1@1'));
    assert.deepEqual([h.applied, h.commits, h.fatal], [['k'], ['1@1'], []]);
  });
});

describe('writer loop: a slow record holds only its own target (issue 41)', () => {
  it('given a record retried for long on one partition, then a batch of another partition is applied meanwhile, and each commits on its own', async () => {
    const { promise: released, resolve: release } = Promise.withResolvers<void>();
    const h = await given(async (m) => (m.target.name === 'slow' ? released.then(() => applied(m)) : applied(m)), 2);
    await h.group.onAssigned?.(assignment(0, 1));
    await h.group.onBatch(await batchOf(0, 0, 'slow'), noHeartbeat);
    await h.group.onBatch(await batchOf(1, 0, 'fast'), noHeartbeat);
    await eventually('the other partition applied and committed', () => h.commits.includes('1@1'));
    assert.deepEqual(h.applied, ['slow', 'fast']);
    assert.ok(!h.commits.some((c) => c.startsWith('0@')), 'the slow record is not committed past');
    release();
    await eventually('the slow one committed once done', () => h.commits.includes('0@1'));
  });
});

describe('writer loop: SIGTERM is prompt', () => {
  it('given a record waiting to retry, then stop abandons it at once: no commit, no fatal', async () => {
    const h = await given(async (_m, signal) => {
      await abortableSleep(60_000, realScheduler, signal);
      return assert.fail('the retry should have been abandoned');
    });
    await h.group.onAssigned?.(assignment(0));
    await h.group.onBatch(await batchOf(0, 0, 'a'), noHeartbeat);
    await eventually('a taken up', () => h.applied.length === 1);
    const started = Date.now();
    h.stopping.abort(new AbandonedError('the writer is stopping'));
    await h.loop.stop();
    assert.ok(Date.now() - started < 1000);
    assert.deepEqual([h.commits, h.fatal, h.loop.notReady()], [[], [], 'stopping']);
  });
});
