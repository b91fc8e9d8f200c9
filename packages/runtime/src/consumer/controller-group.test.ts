import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Bus, GroupOptions, PartitionOffsets } from '../bus/bus.ts';
import { aCreate } from '../mutation/mutation.fixture.ts';
import { jsonLogger } from '../service/log.ts';
import { UNSIGNED } from '../signing/signing.ts';
import { partitionFor, namespacePartitionKey } from '../partition/murmur2.ts';
import type { InputEvent } from '../controller/controller-types.ts';
import { lockTopic, type ControllerGroupOptions, type GroupPart } from './controller-group-options.ts';
import { ControllerGroup } from './controller-group.ts';
import { KeyInventory } from './inventory.ts';

const PODS = 'kcm.state.pods';
const PODS_HISTORY = 'kcm.watch.pods';
const NODES = 'kcm.state.nodes';
const NODES_HISTORY = 'kcm.watch.nodes';
const RESULTS = 'kcm.mutation-results';

/** scriptedBus is a Bus whose groups the test drives: it keeps each joinGroup's options and the topics ensured. */
function scriptedBus(partitions = 2): {
  bus: Bus;
  groups: GroupOptions[];
  ensured: string[];
  sent: { topic: string; headers: unknown }[];
  moves: string[];
} {
  const groups: GroupOptions[] = [];
  const ensured: string[] = [];
  const sent: { topic: string; headers: unknown }[] = [];
  const moves: string[] = [];
  const member = {
    joined: () => true,
    commit: async () => undefined,
    stop: async () => undefined,
    pause: (tps: readonly { topic: string; partition: number }[]) =>
      void moves.push(...tps.map((tp) => `pause ${tp.topic}/${tp.partition}`)),
    resume: (tps: readonly { topic: string; partition: number; offset?: string }[]) =>
      void moves.push(...tps.map((tp) => `resume ${tp.topic}/${tp.partition}@${tp.offset}`)),
  };
  const bus = {
    ensureTopics: async (specs: readonly { topic: string }[]) =>
      new Map(specs.map((s) => (ensured.push(s.topic), [s.topic, 1]))),
    partitionCount: async () => partitions,
    publisher: async () => ({
      send: async (topic: string, records: readonly { headers?: unknown }[]) =>
        void sent.push(...records.map((r) => ({ topic, headers: r.headers }))),
      sendTopics: async () => undefined,
      close: async () => undefined,
    }),
    joinGroup: async (o: GroupOptions) => (groups.push(o), member),
  } as unknown as Bus;
  return { bus, groups, ensured, sent, moves };
}

const json = { decode: async (b: Buffer) => ({ value: JSON.parse(b.toString()) as unknown, schemaId: 1 }) };

/** recordingPart is a part (a controller and its inputs) that records what it is fed. */
function recordingPart(name: string, inputs: Pick<GroupPart, 'partitioned' | 'global'>) {
  const fed = {
    events: [] as InputEvent[],
    results: [] as boolean[],
    dropped: [] as string[],
    storeDropped: [] as string[],
    activations: [] as Date[],
  };
  const part: GroupPart = {
    name,
    ...inputs,
    serdes: new Map([...inputs.partitioned, ...inputs.global].map((t) => [t, json])),
    signing: UNSIGNED,
    dropWhere: (scope, pred) =>
      void fed.storeDropped.push(
        ...['ns-a/x', 'ns-b/y'].filter(pred).map((k) => (scope === 'global' ? `global ${k}` : k)),
      ),
    controller: {
      onEvent: async (_topic, e) => void fed.events.push(e),
      onResult: async (_r, _c, live) => void fed.results.push(live),
      onWatermark: () => undefined,
      dropWhere: (pred) => void fed.dropped.push(...['ns-a/x', 'ns-b/y'].filter(pred)),
      onActivated: (at) => void fed.activations.push(at),
    },
  };
  return { part, ...fed };
}

/** groupOptions are a test group's options over this bus: unsigned JSON results, silent, nothing dead-lettered. */
function groupOptions(bus: ControllerGroupOptions['bus']): ControllerGroupOptions {
  return {
    bus,
    groupId: 'g',
    singleton: false,
    resultsTopic: RESULTS,
    results: { serde: json, signing: UNSIGNED },
    mutations: { topic: 'm', serde: { encode: async () => ({ bytes: Buffer.alloc(0), unknownPaths: [] }) } },
    onDeadLetter: () => undefined,
    onDivergence: () => undefined,
    onRestore: () => undefined,
    log: jsonLogger('test', { sink: () => undefined }),
    fatal: () => undefined,
  };
}

/** harness starts a group over the scripted bus with one part (inputs: pods, unless told) that records what it is fed. */
async function harness(
  o: Partial<ControllerGroupOptions> & { partitions?: number; partitioned?: string[]; global?: string[] } = {},
) {
  const { bus, groups, ensured, sent, moves } = scriptedBus(o.partitions);
  const { part, ...fed } = recordingPart('c', { partitioned: o.partitioned ?? [PODS], global: o.global ?? [] });
  const group = new ControllerGroup({ ...groupOptions(bus), ...o });
  group.attach(part);
  await group.start();
  return { group, groups, ensured, sent, moves, ...fed };
}

const offsets = (topic: string, partition: number, high: number): PartitionOffsets => ({
  topic,
  partition,
  low: '0',
  high: String(high),
});
const record = (
  key: string,
  offset: number,
): { key: Buffer; value: Buffer; offset: string; timestamp: string; headers: {} } => ({
  key: Buffer.from(key),
  value: Buffer.from(JSON.stringify({ type: 'Applied', object: { metadata: { name: key } }, resourceVersion: '5' })),
  offset: String(offset),
  timestamp: '0',
  headers: {},
});
/** watermarkRecord is a watcher's watermark at this offset, with these headers (an inventory, a checkpoint marker). */
const watermarkRecord = (offset: number, headers: Record<string, string>) => ({
  ...record('~watermark', offset),
  value: Buffer.from(
    JSON.stringify({
      type: 'Watermark',
      key: '~watermark',
      resourceVersion: '5',
      observedAt: '2026-01-01T00:00:00Z',
      object: null,
    }),
  ),
  headers,
});
const heartbeat = async (): Promise<void> => undefined;
const settled = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
const partitionOfNs = (ns: string): number => partitionFor(namespacePartitionKey(`${ns}/x`), 2);

/**
 * readingHistory assigns a group partition n of an input (pods unless told; its state holds one object, its history
 * 5 records) and reads it up to the history's offset 6: the next offset is 7.
 */
async function readingHistory(g: GroupOptions, n: number, [state, history] = [PODS, PODS_HISTORY]): Promise<void> {
  await g.onAssigned!([offsets(state, n, 1), offsets(history, n, 5)]);
  await g.onBatch({ topic: state, partition: n, records: [record('ns-a/x', 0)], lastOffset: '0' }, heartbeat);
  await settled();
  await g.onBatch(
    { topic: history, partition: n, records: [record('ns-a/y', 5), record('ns-a/z', 6)], lastOffset: '6' },
    heartbeat,
  );
}

/**
 * assignedAgain forgets the moves and drops recorded so far, then assigns partition a again (its history up to offset
 * 8) beside a partition b new to the member.
 */
async function assignedAgain(
  h: Awaited<ReturnType<typeof harness>>,
  g: GroupOptions,
  [a, b]: readonly [number, number],
  [state, history] = [PODS, PODS_HISTORY],
): Promise<void> {
  [h.moves.length, h.storeDropped.length] = [0, 0];
  await g.onAssigned!([offsets(state, a, 1), offsets(history, a, 9), offsets(state, b, 1), offsets(history, b, 3)]);
  await settled();
}

describe('ControllerGroup: the Kafka form of WaitForCacheSync, partition ownership and global inputs', () => {
  it('given an assigned partition, then its state is restored (not live) until the high-water mark, then its history is read on, and its keys sync only then', async () => {
    const h = await harness();
    const p = partitionOfNs('ns-a');
    await h.groups[0]!.onAssigned!([offsets(PODS, p, 2), offsets(PODS_HISTORY, p, 9), offsets(RESULTS, p, 0)]);
    assert.deepEqual([h.group.partitionOwned(p), h.group.partitionSynced(p), h.group.ready()], [true, false, false]);
    await h.groups[0]!.onBatch(
      {
        topic: PODS,
        partition: p,
        records: [record('ns-a/x', 0), record('ns-a/y', 1), record('ns-a/past', 2)],
        lastOffset: '2',
      },
      heartbeat,
    );
    await settled();
    assert.deepEqual(
      h.events.map((e) => `${e.key} ${e.live}`),
      ['ns-a/x false', 'ns-a/y false'],
      "what the state holds past the mark is the history's to bring",
    );
    assert.deepEqual(
      h.moves,
      [`pause ${PODS}/${p}`, `resume ${PODS_HISTORY}/${p}@9`],
      'no checkpoint marker: the history from its high-water mark at assignment',
    );
    assert.deepEqual([h.group.partitionSynced(p), h.group.ready()], [true, true]);
    await h.groups[0]!.onBatch(
      { topic: PODS_HISTORY, partition: p, records: [record('ns-a/z', 9)], lastOffset: '9' },
      heartbeat,
    );
    assert.deepEqual(
      [h.events.at(-1)?.live, h.events.at(-1)?.cause.topic],
      [true, PODS_HISTORY],
      'the cause names the record in the history',
    );
  });

  it('given a state partition compacted while it was restored (an Applied read, then only its tombstone), then the tombstone deletes the key', async () => {
    // Compaction promises a reader from the start only each key's final record and the tombstones: the Deleted the
    // watcher wrote between them can be gone by the time the reader gets there (issue 41's ghost).
    const h = await harness();
    const p = partitionOfNs('ns-a');
    await h.groups[0]!.onAssigned!([offsets(PODS, p, 3), offsets(PODS_HISTORY, p, 0)]);
    const tombstone = { ...record('ns-a/x', 2), value: null };
    await h.groups[0]!.onBatch(
      { topic: PODS, partition: p, records: [record('ns-a/x', 0), tombstone], lastOffset: '2' },
      heartbeat,
    );
    assert.deepEqual(
      h.events.map((e) => `${e.type} ${e.key}`),
      ['Applied ns-a/x', 'Deleted ns-a/x'],
    );
  });

  it("given watermark records carrying the watcher's inventory, then a partition that read the same objects agrees, and one that differs is counted and logged once", async () => {
    const diverged: string[] = [];
    const logs: string[] = [];
    const h = await harness({
      onDivergence: (topic) => void diverged.push(topic),
      log: jsonLogger('test', { sink: (line) => void logs.push(line) }),
    });
    const p = partitionOfNs('ns-a');
    await h.groups[0]!.onAssigned!([offsets(PODS, p, 0), offsets(PODS_HISTORY, p, 0)]);
    const inventory = (...keys: string[]): string => {
      const i = new KeyInventory();
      for (const k of keys) i.applied(k);
      return i.inventory.header();
    };
    const watermark = (offset: number, watcher: string) => watermarkRecord(offset, { 'kcm-bus-inventory': watcher });
    const history = (...records: ReturnType<typeof record>[]) =>
      h.groups[0]!.onBatch(
        { topic: PODS_HISTORY, partition: p, records, lastOffset: records.at(-1)!.offset },
        heartbeat,
      );
    await history(record('ns-a/x', 0), watermark(1, inventory('ns-a/x')));
    assert.deepEqual(diverged, [], 'the same objects: they agree');
    await history(watermark(2, inventory()), watermark(3, inventory()));
    assert.deepEqual(diverged, [PODS], 'a ghost of ns-a/x: counted once, under the input');
    assert.equal(logs.filter((l) => l.includes('differ from what the watcher published')).length, 1);
  });

  it("given a state partition with checkpoint markers, then its history is read from the last marker's offset, and a record of an older watcher epoch is refused", async () => {
    const h = await harness();
    const p = partitionOfNs('ns-a');
    await h.groups[0]!.onAssigned!([offsets(PODS, p, 3), offsets(PODS_HISTORY, p, 40)]);
    const marker = (offset: number, next: number, epoch: number) =>
      watermarkRecord(offset, { 'kcm-bus-history-next': String(next), 'kcm-bus-epoch': String(epoch) });
    await h.groups[0]!.onBatch(
      {
        topic: PODS,
        partition: p,
        records: [marker(0, 10, 4), record('ns-a/x', 1), marker(2, 30, 7)],
        lastOffset: '2',
      },
      heartbeat,
    );
    await settled();
    assert.deepEqual(h.moves, [`pause ${PODS}/${p}`, `resume ${PODS_HISTORY}/${p}@30`]);
    assert.equal(
      h.group.partitionSynced(p),
      false,
      'the history is read up to its high-water mark at assignment first',
    );
    const at = (key: string, offset: number, epoch: number) => ({
      ...record(key, offset),
      headers: { 'kcm-bus-epoch': String(epoch) },
    });
    await h.groups[0]!.onBatch(
      {
        topic: PODS_HISTORY,
        partition: p,
        records: [at('ns-a/zombie', 30, 6), at('ns-a/y', 31, 7), at('ns-a/zombie', 39, 6)],
        lastOffset: '39',
      },
      heartbeat,
    );
    assert.deepEqual(
      h.events.map((e) => e.key),
      ['ns-a/x', 'ns-a/y'],
    );
    assert.deepEqual(
      h.sent.map((s) => s.topic),
      [`${PODS_HISTORY}.dlq`, `${PODS_HISTORY}.dlq`],
      'each refused record is dead-lettered',
    );
    assert.match(JSON.stringify(h.sent[0]?.headers), /watcher epoch 6 is older than the partition's 7/);
    assert.equal(h.group.partitionSynced(p), true, 'a refused record counts as read');
  });

  it('given the results topic, then a member reads it on from where its group left it, inputs from their beginning', async () => {
    const h = await harness();
    const o = h.groups[0]!;
    assert.deepEqual(
      [o.startAt?.({ topic: PODS, partition: 0 }), o.startAt?.({ topic: RESULTS, partition: 0 })],
      ['0', undefined],
    );
    const commits = o.commitProgress as (tp: { topic: string; partition: number }) => boolean;
    assert.deepEqual(
      [PODS, PODS_HISTORY, RESULTS].map((topic) => commits({ topic, partition: 0 })),
      [false, true, true],
      'no commits on a state topic, read only to restore',
    );
    assert.deepEqual(
      [PODS, PODS_HISTORY, RESULTS].map((topic) => o.pausedAtJoin?.({ topic, partition: 0 })),
      [false, true, false],
      'the history waits for the state',
    );
  });

  it('given a results partition with a backlog, then it gates no sync, and a result is live from the high-water mark seen on assignment', async () => {
    const h = await harness();
    const p = partitionOfNs('ns-a');
    await h.groups[0]!.onAssigned!([offsets(PODS, p, 0), offsets(RESULTS, p, 50_000)]);
    assert.equal(h.group.partitionSynced(p), true);
    const result = (offset: number) => ({
      ...record('ns-a/x', offset),
      value: Buffer.from(JSON.stringify({ mutationId: `m${offset}`, outcome: 'Applied' })),
    });
    await h.groups[0]!.onBatch(
      { topic: RESULTS, partition: p, records: [result(49_999), result(50_000)], lastOffset: '50000' },
      heartbeat,
    );
    assert.deepEqual(h.results, [false, true]);
  });

  it('given a global input, then no partition syncs before the global input caught up, and the global group is ephemeral', async () => {
    const h = await harness({ global: [NODES] });
    const [globalGroup, partitionedGroup] = h.groups;
    assert.equal(globalGroup!.ephemeral, true);
    assert.deepEqual(partitionedGroup!.topics, [PODS, PODS_HISTORY, RESULTS]);
    await partitionedGroup!.onAssigned!([offsets(PODS, 0, 0), offsets(RESULTS, 0, 0)]);
    assert.equal(h.group.partitionSynced(0), false, 'the global input has not even been assigned');
    await globalGroup!.onAssigned!([offsets(NODES, 0, 1)]);
    assert.equal(h.group.partitionSynced(0), false);
    globalGroup!.onProgress!({ topic: NODES, partition: 0 }, '0');
    assert.equal(h.group.partitionSynced(0), true);
  });

  it("given the global input's reader assigned again, then a partition it was reading keeps its objects and reads on; another drops the global objects it held and restores", async () => {
    const restored: string[] = [];
    const h = await harness({ global: [NODES], onRestore: (topic) => void restored.push(topic) });
    const globalGroup = h.groups[0]!;
    const [a, b] = [partitionOfNs('ns-a'), partitionOfNs('ns-b')];
    await readingHistory(globalGroup, a, [NODES, NODES_HISTORY]);
    await assignedAgain(h, globalGroup, [a, b], [NODES, NODES_HISTORY]);
    assert.deepEqual(h.moves, [`resume ${NODES_HISTORY}/${a}@7`]);
    assert.deepEqual(h.storeDropped, ['global ns-b/y']);
    assert.deepEqual(restored, [NODES, NODES]);
  });

  it('given a rebalance that takes a partition away, then its keys are dropped and it is no longer owned or tracked', async () => {
    const h = await harness();
    const [a, b] = [partitionOfNs('ns-a'), partitionOfNs('ns-b')];
    assert.notEqual(a, b, 'the two namespaces land on different partitions');
    await h.groups[0]!.onAssigned!([offsets(PODS, a, 0), offsets(PODS, b, 0)]);
    await h.groups[0]!.onAssigned!([offsets(PODS, b, 0)]);
    assert.deepEqual([h.group.partitionOwned(a), h.group.partitionOwned(b)], [false, true]);
    assert.deepEqual(h.dropped, ['ns-a/x']);
    assert.deepEqual(h.group.ownedPartitions(), [{ partition: b, synced: true }]);
  });

  it('given a rebalance that gives a member back a partition whose history it was reading, then it keeps its objects and reads the history on from the next offset; a partition new to it restores', async () => {
    const restored: string[] = [];
    const h = await harness({ onRestore: (topic) => void restored.push(topic) });
    const g = h.groups[0]!;
    const [a, b] = [partitionOfNs('ns-a'), partitionOfNs('ns-b')];
    await readingHistory(g, a);
    assert.deepEqual(
      [g.pausedAtJoin!({ topic: PODS, partition: a }), g.startAt!({ topic: PODS, partition: a })],
      [true, undefined],
      'at the join, the state partition it may keep waits where it is',
    );
    assert.deepEqual(
      [g.pausedAtJoin!({ topic: PODS, partition: b }), g.startAt!({ topic: PODS, partition: b })],
      [false, '0'],
    );
    await assignedAgain(h, g, [a, b]);
    assert.deepEqual(
      h.moves,
      [`resume ${PODS_HISTORY}/${a}@7`],
      'the history from the next offset, the state left alone',
    );
    assert.deepEqual(h.storeDropped, ['ns-b/y'], "the kept partition's objects stay");
    assert.deepEqual(restored, [PODS, PODS], 'a restored on the first assignment, b on the second');
    assert.equal(h.group.partitionSynced(a), false, 'synced once its history reached the high-water mark again');
    await g.onBatch(
      { topic: PODS_HISTORY, partition: a, records: [record('ns-a/w', 7), record('ns-a/v', 8)], lastOffset: '8' },
      heartbeat,
    );
    assert.equal(h.group.partitionSynced(a), true);
    assert.deepEqual(
      h.events.slice(-2).map((e) => `${e.key} ${e.live}`),
      ['ns-a/w false', 'ns-a/v false'],
      'what it catches up on is not live, as after a restore',
    );
  });

  it('given a partition it was reading whose history no longer holds the next offset (retention), or whose objects disagreed with the watcher, then it restores it from the beginning', async () => {
    for (const lost of ['retention', 'divergence'] as const) {
      const h = await harness();
      const a = partitionOfNs('ns-a');
      await readingHistory(h.groups[0]!, a);
      if (lost === 'divergence')
        await h.groups[0]!.onBatch(
          {
            topic: PODS_HISTORY,
            partition: a,
            records: [watermarkRecord(7, { 'kcm-bus-inventory': '9:00000000' })],
            lastOffset: '7',
          },
          heartbeat,
        );
      [h.moves.length, h.storeDropped.length] = [0, 0];
      const history = { ...offsets(PODS_HISTORY, a, 12), low: lost === 'retention' ? '8' : '0' };
      await h.groups[0]!.onAssigned!([offsets(PODS, a, 1), history]);
      await settled();
      assert.deepEqual(
        h.moves,
        [`resume ${PODS}/${a}@0`],
        `${lost}: the state partition, waiting since the join, from its beginning`,
      );
      assert.deepEqual(h.storeDropped, ['ns-a/x', 'ns-b/y'], lost);
    }
  });

  it('given a singleton, then its group holds only a one-partition lock topic, every key is on partition 0, and results are read whole', async () => {
    const h = await harness({ singleton: true, partitioned: [], global: [NODES] });
    assert.ok(h.ensured.includes(lockTopic('g')));
    const [globalGroup, lockGroup] = h.groups;
    assert.deepEqual([globalGroup!.topics, lockGroup!.topics], [[NODES, NODES_HISTORY, RESULTS], [lockTopic('g')]]);
    assert.equal(h.group.partitionOf('any/key'), 0);
    assert.equal(h.group.partitionOwned(0), false, 'a standby owns nothing');
    await globalGroup!.onAssigned!([offsets(NODES, 0, 0), offsets(RESULTS, 0, 9)]);
    await lockGroup!.onAssigned!([offsets(lockTopic('g'), 0, 0)]);
    assert.deepEqual([h.group.partitionOwned(0), h.group.partitionSynced(0)], [true, true]);
  });

  it("given a singleton's fetch linger, then its global inputs' group lingers and its lock's group does not; a shared group's global inputs do not", async () => {
    const lingering = await harness({ singleton: true, partitioned: [], global: [NODES], fetchLingerMs: 200 });
    assert.deepEqual(
      lingering.groups.map((g) => [g.topics[0], g.fetchLingerMs ?? 0]),
      [
        [NODES, 200],
        [lockTopic('g'), 0],
      ],
    );
    const shared = await harness({ global: [NODES] });
    assert.deepEqual(
      shared.groups.map((g) => g.fetchLingerMs ?? 0),
      [0, 0],
    );
  });

  it('given a singleton whose global records came before its lock, then taking the lock passes over the global inputs once (onActivated), and keeping it across a rebalance does not', async () => {
    const h = await harness({ singleton: true, partitioned: [], global: [NODES] });
    const [globalGroup, lockGroup] = h.groups;
    await globalGroup!.onAssigned!([offsets(NODES, 0, 1)]);
    await globalGroup!.onBatch({ topic: NODES, partition: 0, records: [record('n1', 0)], lastOffset: '0' }, heartbeat);
    assert.equal(h.activations.length, 0, 'not active yet');
    await lockGroup!.onAssigned!([offsets(lockTopic('g'), 0, 0)]);
    assert.equal(h.activations.length, 1);
    await lockGroup!.onAssigned!([offsets(lockTopic('g'), 0, 0)]);
    assert.equal(h.activations.length, 1, 'a member that kept the lock dropped nothing meanwhile: no second pass');
    await lockGroup!.onAssigned!([]);
    assert.equal(h.activations.length, 1, 'a member that lost the lock is not activated again');
    await lockGroup!.onAssigned!([offsets(lockTopic('g'), 0, 0)]);
    assert.equal(h.activations.length, 2, 'taking it again is an activation');
  });

  it('given a partitioned group, then an assignment activates nothing: its partitions restore their own records', async () => {
    const h = await harness({ global: [NODES] });
    await h.groups[1]!.onAssigned!([offsets(PODS, 0, 0)]);
    assert.equal(h.activations.length, 0);
  });

  it("given records read at given times, then each advances its partition's input clock as a watermark does, never back", async () => {
    const h = await harness({ global: [NODES] });
    await h.groups[0]!.onAssigned!([offsets(NODES, 0, 0), offsets(NODES, 1, 0)]);
    const at = (key: string, offset: number, observedAt: string) => {
      const r = record(key, offset);
      return {
        ...r,
        value: Buffer.from(JSON.stringify({ ...(JSON.parse(r.value.toString()) as object), observedAt })),
      };
    };
    const batch = (partition: number, records: ReturnType<typeof at>[]) =>
      h.groups[0]!.onBatch(
        { topic: NODES_HISTORY, partition, records, lastOffset: String(records.length - 1) },
        heartbeat,
      );
    await batch(0, [at('n1', 0, '2026-01-01T00:00:05Z')]);
    assert.equal(h.group.watermark(NODES), undefined, 'partition 1 has brought no time yet');
    await batch(1, [at('n2', 0, '2026-01-01T00:00:03Z'), at('n3', 1, '2026-01-01T00:00:09Z')]);
    assert.equal(h.group.watermark(NODES)?.toISOString(), '2026-01-01T00:00:05.000Z');
    await batch(0, [at('n1', 1, '2026-01-01T00:00:01Z'), at('n4', 2, '2026-01-01T00:00:12Z')]);
    assert.equal(h.group.watermark(NODES)?.toISOString(), '2026-01-01T00:00:09.000Z');
    const keyOn = (p: number): string =>
      ['n1', 'n2', 'n3', 'n4', 'n5', 'n6'].find((k) => h.group.watchPartitionOf(k) === p)!;
    assert.deepEqual(
      [0, 1].map((p) => h.group.watermark(NODES, keyOn(p))?.toISOString()),
      ['2026-01-01T00:00:12.000Z', '2026-01-01T00:00:09.000Z'],
      'with a key, the time of the partition its records are on',
    );
  });

  it("given a batch of records read in one turn, then their times count once it is applied whole: between two of them (where a periodic pass can run) the partition's time is the one before the batch", async () => {
    const h = await harness({ global: [NODES] });
    await h.groups[0]!.onAssigned!([offsets(NODES, 0, 0), offsets(NODES, 1, 0)]);
    const on0 = ['n1', 'n2', 'n3', 'n4', 'n5', 'n6'].filter((k) => h.group.watchPartitionOf(k) === 0);
    const at = (key: string, offset: number, observedAt: string) => {
      const r = record(key, offset);
      return {
        ...r,
        value: Buffer.from(JSON.stringify({ ...(JSON.parse(r.value.toString()) as object), observedAt })),
      };
    };
    const records = [at(on0[0]!, 0, '2026-01-01T00:00:05Z')];
    await h.groups[0]!.onBatch({ topic: NODES_HISTORY, partition: 0, records, lastOffset: '0' }, heartbeat);
    const between: (string | undefined)[] = [];
    const stalled = [at(on0[0]!, 1, '2026-01-01T00:00:19Z'), at(on0[1]!, 2, '2026-01-01T00:00:19Z')];
    await h.groups[0]!.onBatch({ topic: NODES_HISTORY, partition: 0, records: stalled, lastOffset: '2' }, async () => {
      between.push(h.group.watermark(NODES, on0[0]!)?.toISOString());
    });
    assert.deepEqual(between, ['2026-01-01T00:00:05.000Z', '2026-01-01T00:00:05.000Z']);
    assert.equal(h.group.watermark(NODES, on0[0]!)?.toISOString(), '2026-01-01T00:00:19.000Z', 'the batch applied');
  });

  it('given a singleton declared with a partitioned input, then it refuses to start', () => {
    const singleton = new ControllerGroup({ singleton: true } as unknown as ControllerGroupOptions);
    assert.throws(
      () => singleton.attach(recordingPart('s', { partitioned: [PODS], global: [] }).part),
      /global inputs only/,
    );
  });

  it('given two controllers reading pods, then the group reads pods once, joins once, and each controller gets every record; a view they share is decoded once', async () => {
    const { bus, groups } = scriptedBus();
    let decodes = 0;
    const counting = { decode: async (b: Buffer) => (decodes++, json.decode(b)) };
    const group = new ControllerGroup(groupOptions(bus));
    const [rc, rs] = [
      recordingPart('rc', { partitioned: [PODS], global: [] }),
      recordingPart('rs', { partitioned: [PODS, NODES], global: [] }),
    ];
    for (const p of [rc, rs])
      group.attach({ ...p.part, serdes: new Map([...p.part.serdes.keys()].map((t) => [t, counting])) });
    await group.start();
    assert.equal(groups.length, 1, 'one consumer group for both');
    assert.deepEqual(groups[0]!.topics, [PODS, NODES, PODS_HISTORY, NODES_HISTORY, RESULTS]);
    const p = partitionOfNs('ns-a');
    await groups[0]!.onAssigned!([offsets(PODS, p, 1)]);
    await groups[0]!.onBatch({ topic: PODS, partition: p, records: [record('ns-a/x', 0)], lastOffset: '0' }, heartbeat);
    assert.deepEqual([rc.events.map((e) => e.key), rs.events.map((e) => e.key), decodes], [['ns-a/x'], ['ns-a/x'], 1]);
  });

  it("given a record that cannot be decoded, then it goes to its topic's dead-letter topic and the next record is handled", async () => {
    const h = await harness();
    const p = partitionOfNs('ns-a');
    await h.groups[0]!.onAssigned!([offsets(PODS, p, 3)]);
    const garbage = { ...record('ns-a/bad', 1), value: Buffer.from('not json') };
    await h.groups[0]!.onBatch(
      { topic: PODS, partition: p, records: [record('ns-a/x', 0), garbage, record('ns-a/y', 2)], lastOffset: '2' },
      heartbeat,
    );
    assert.deepEqual(
      h.events.map((e) => e.key),
      ['ns-a/x', 'ns-a/y'],
    );
    assert.deepEqual(
      h.sent.map((s) => s.topic),
      ['kcm.state.pods.dlq'],
    );
    assert.match(JSON.stringify(h.sent[0]?.headers), /kcm\.state\.pods\/\d\/1/);
    assert.equal(h.group.partitionSynced(p), true);
    assert.ok(h.ensured.includes('kcm.watch.pods.dlq'), 'dead-letter topics are created at start');
  });

  it('given mutations to publish, then each goes to the mutations topic signed by the controller', async () => {
    const signing = {
      enabled: true,
      headers: (key: string) => ({ 'kcm-bus-signer': 'c', 'kcm-bus-signature': `sig(${key})` }),
      verify: () => undefined,
    };
    const h = await harness();
    await h.group.publish(
      [
        aCreate({
          target: { apiVersion: 'v1', kind: 'Pod', namespace: 'ns-a', name: 'p', resource: 'pods', subresource: null },
        }),
      ],
      signing,
    );
    assert.deepEqual(h.sent, [{ topic: 'm', headers: { 'kcm-bus-signer': 'c', 'kcm-bus-signature': 'sig(ns-a/p)' } }]);
  });
});
