import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { kafkaBus } from '@kcm-bus/runtime/bus/bus.kafka.ts';
import {
  historyTopicConfigs,
  publisherFenced,
  STATE_TOPIC_CONFIGS,
  type Bus,
  type GroupMember,
  type OutgoingRecord,
  type PartitionOffsets,
} from '@kcm-bus/runtime/bus/index.ts';
import { startStandaloneKafka, type StandaloneKafka } from '@kcm-bus/stack/kafka-standalone.ts';
import { otherKafka } from '@kcm-bus/stack/kafka-versions.ts';
import { uniqueName } from '../support/stack.ts';
import { waitFor } from '@kcm-bus/harness/wait.ts';

/**
 * The stack runs one Kafka release (KCM_BUS_KAFKA_VERSION, 4.x by default) and every other integration test proves
 * the bus on it; this file starts a broker of the other supported major beside it (3.9.1 when the stack runs 4.x)
 * and runs the bus's essentials on it, through the same adapter the services use.
 */
const release = otherKafka();
const PARTITIONS = 3;
const state = uniqueName('kcm.compat.state');
const history = uniqueName('kcm.compat.history');

/** records are n records spread over the partitions by number, valued `${label}-${i}`. */
function records(label: string, n: number): OutgoingRecord[] {
  return Array.from({ length: n }, (_, i) => ({
    key: `ns-${i % PARTITIONS}/obj-${i}`,
    value: Buffer.from(`${label}-${i}`),
    partition: i % PARTITIONS,
  }));
}

const values = (rs: readonly OutgoingRecord[]): string[] => rs.map((r) => r.value?.toString() ?? '');

describe(`the bus on a Kafka ${release.version} broker beside the stack's`, () => {
  let broker: StandaloneKafka | undefined;
  let bus: Bus;
  let committed: { readonly state: string[]; readonly history: string[] } = { state: [], history: [] };

  before(async () => {
    const started = Date.now();
    broker = await startStandaloneKafka(release, (line) => console.log(line));
    console.log(
      `kafka ${release.version} ready in ${((Date.now() - started) / 1000).toFixed(1)} s at ${broker.bootstrap} (pid ${broker.pid})`,
    );
    bus = kafkaBus({ brokers: [broker.bootstrap], clientId: 'kcm-bus-test-compat' });
  });
  after(async () => broker?.stop());

  it('creates a state and a history topic with their configs, and sets new configs on an existing topic', async () => {
    const specs = [
      { topic: state, partitions: PARTITIONS, configs: STATE_TOPIC_CONFIGS },
      { topic: history, partitions: PARTITIONS, configs: historyTopicConfigs(3_600_000) },
    ];
    assert.deepEqual(
      await bus.ensureTopics(specs),
      new Map([
        [state, PARTITIONS],
        [history, PARTITIONS],
      ]),
    );
    const stateConfigs = await bus.topicConfigs(state);
    for (const [name, value] of Object.entries(STATE_TOPIC_CONFIGS)) assert.equal(stateConfigs[name], value, name);
    await bus.ensureTopics([{ topic: history, partitions: 1, configs: historyTopicConfigs(7_200_000) }]);
    assert.equal((await bus.topicConfigs(history))['retention.ms'], '7200000');
    assert.equal(await bus.partitionCount(history), PARTITIONS, 'an existing topic keeps its partition count');
  });

  it('publishes transactions across both topics; a second publisher of the same id fences the first (PublisherFencedError)', async () => {
    const id = uniqueName('kcm-bus-test-compat-txn');
    const first = await bus.transactionalPublisher(id);
    const second = { state: records('second', 6), history: records('second-history', 6) };
    try {
      const batch = { state: records('first', 9), history: records('first-history', 9) };
      await first.sendTopics([
        { topic: state, records: batch.state },
        { topic: history, records: batch.history },
      ]);
      const taker = await bus.transactionalPublisher(id);
      try {
        const fenced = await first.send(state, records('zombie', 3)).then(
          () => undefined,
          (err: unknown) => err,
        );
        assert.ok(publisherFenced(fenced), `the older publisher's send failed fenced: ${String(fenced)}`);
        await taker.sendTopics([
          { topic: state, records: second.state },
          { topic: history, records: second.history },
        ]);
      } finally {
        await taker.close();
      }
      committed = {
        state: [...values(batch.state), ...values(second.state)],
        history: [...values(batch.history), ...values(second.history)],
      };
    } finally {
      await first.close().catch(() => undefined);
    }
  });

  it('hands the committed records, and no fenced one, to a co-partitioned read_committed group of two members, which commit them', async () => {
    const groupId = uniqueName('kcm-bus-test-compat-group');
    const seen: Seen = {
      received: new Map([
        [state, new Set()],
        [history, new Set()],
      ]),
      assignments: new Map(),
    };
    const members: GroupMember[] = [];
    try {
      for (const name of ['a', 'b']) members.push(await joinCommitting(bus, groupId, name, seen));
      await waitFor(
        'both members assigned, every partition once',
        () => {
          const held = [...seen.assignments.values()];
          return (
            notCrashed(seen) &&
            held.length === 2 &&
            held.flat().length === 2 * PARTITIONS &&
            held.every((a) => a.length > 0)
          );
        },
        { timeoutMs: 120_000 },
      );
      for (const [name, a] of seen.assignments) {
        const numbers = (topic: string): number[] =>
          a
            .filter((p) => p.topic === topic)
            .map((p) => p.partition)
            .sort();
        assert.deepEqual(
          numbers(state),
          numbers(history),
          `member ${name} holds the same partition numbers of both topics`,
        );
      }
      await waitFor(
        'every committed record consumed',
        () =>
          notCrashed(seen) &&
          seen.received.get(state)?.size === committed.state.length &&
          seen.received.get(history)?.size === committed.history.length,
        { timeoutMs: 120_000 },
      );
      assert.deepEqual(
        [...(seen.received.get(state) ?? [])].sort(),
        [...committed.state].sort(),
        'read_committed: no record of the fenced publisher',
      );
      await assertCommittedToEnd(bus, groupId);
    } finally {
      for (const m of members) await m.stop();
    }
  });

  it('reads a topic to its end, in order per partition, and reads what an idempotent publisher sent', async () => {
    const publisher = await bus.publisher();
    const more = records('idempotent', 6);
    try {
      await publisher.send(history, more);
    } finally {
      await publisher.close();
    }
    const read: string[] = [];
    await bus.readToEnd(history, (r) => void read.push(r.value?.toString() ?? ''));
    const expected = [...committed.history, ...values(more)];
    assert.deepEqual([...read].sort(), [...expected].sort());
    for (let p = 0; p < PARTITIONS; p++) {
      const inPartition = (vs: readonly string[]): string[] =>
        vs.filter((v) => Number(v.split('-').at(-1)) % PARTITIONS === p);
      assert.deepEqual(inPartition(read), inPartition(expected), `partition ${p} in order`);
    }
  });
});

/** Seen is what a test group's members reported: record values by topic, each member's latest assignment, a crash. */
type Seen = {
  readonly received: Map<string, Set<string>>;
  readonly assignments: Map<string, PartitionOffsets[]>;
  crashed?: unknown;
};

/** notCrashed throws the crash a member reported (waitFor then fails with it), else is true. */
function notCrashed(seen: Seen): true {
  if (seen.crashed) throw seen.crashed;
  return true;
}

/**
 * joinCommitting joins the state and history topics' co-partitioned group as member `name`, recording what it reads
 * and is assigned into seen, and commits each batch once handled, as a service does.
 */
async function joinCommitting(bus: Bus, groupId: string, name: string, seen: Seen): Promise<GroupMember> {
  // A batch commits through the member joinGroup returns, which it awaits (a batch may run first).
  const { promise: self, resolve } = Promise.withResolvers<GroupMember>();
  const member = await bus.joinGroup({
    groupId,
    topics: [state, history],
    fromBeginning: true,
    coPartitioned: true,
    onAssigned: (a) => void seen.assignments.set(name, [...a]),
    onBatch: async (b) => {
      for (const r of b.records) seen.received.get(b.topic)?.add(r.value?.toString() ?? '');
      await (
        await self
      ).commit([{ topic: b.topic, partition: b.partition, offset: String(BigInt(b.lastOffset) + 1n) }]);
    },
    onCrash: (err, restart) => void (seen.crashed = restart ? seen.crashed : err),
  });
  resolve(member);
  return member;
}

/**
 * assertCommittedToEnd checks that groupOffsets shows the group's commits past every record of each partition and
 * within its high-water mark (offsets: a trailing commit marker may lie past the last record a batch carried).
 */
async function assertCommittedToEnd(bus: Bus, groupId: string): Promise<void> {
  const highs = new Map(
    [...(await bus.offsets(state)), ...(await bus.offsets(history))].map((p) => [
      `${p.topic}/${p.partition}`,
      BigInt(p.high),
    ]),
  );
  const group = await waitFor(
    `${groupId}'s commits`,
    async () => {
      const g = (await bus.groupOffsets()).find((o) => o.groupId === groupId);
      return (
        g?.partitions.length === 2 * PARTITIONS &&
        g.partitions.every(
          (p) =>
            p.committed !== undefined && BigInt(p.committed) >= (highs.get(`${p.topic}/${p.partition}`) ?? 0n) - 1n,
        ) &&
        g
      );
    },
    { timeoutMs: 60_000 },
  );
  for (const p of group.partitions)
    assert.ok(
      BigInt(p.committed ?? '-1') <= (highs.get(`${p.topic}/${p.partition}`) ?? 0n),
      `${p.topic}/${p.partition} committed within the high-water mark`,
    );
  assert.equal(group.members, 2);
}
