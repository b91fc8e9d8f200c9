/**
 * One arm of `npm run bench:client` (kafka-client.ts starts it as a process of its own, so each client's CPU is its
 * process's): a producer sends records one per send, each at its time in a paced schedule (acks=all, idempotent),
 * and a consumer group in the same process reads them back, as each reconciler and the watcher do. Prints one line
 * of JSON: the process's CPU over the round, the records' latency from send to receipt, its RSS at the end, and its
 * CPU over 10 s idle after the round.
 *
 * Arguments: <kafkajs|librdkafka> <bootstrap> <topic> <records> <records a second> <kafka-javascript's folder>
 * [idle topics, comma-separated: the consumer reads them beside the topic, and nothing is sent to them]
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { waitFor } from '@kcm-bus/harness/wait.ts';
import { kafkaBus } from '@kcm-bus/runtime/bus/bus.kafka.ts';
import { percentile } from '../lib/stats.ts';

/** ArmClient is a producer and a consumer group member on one client library. */
type ArmClient = {
  send(key: string, value: Buffer): Promise<void>;
  stop(): Promise<void>;
};

type OnValue = (value: Buffer) => void;

const VALUE_BYTES = 2048;
const IDLE_SECONDS = 10;
/** POLL: how often the arm looks at what it waits for, and how long it waits at most. */
const POLL = { intervalMs: 10, timeoutMs: 300_000 } as const;

/** kafkajsClient is the anchor: the runtime's own bus (kafkajs), its publisher and a consumer group member. */
async function kafkajsClient(bootstrap: string, topics: readonly string[], onValue: OnValue): Promise<ArmClient> {
  const topic = topics[0]!;
  const bus = kafkaBus({ brokers: [bootstrap], clientId: 'bench-client' });
  const publisher = await bus.publisher();
  const member = await bus.joinGroup({
    groupId: `${topic}-kafkajs`,
    topics,
    fromBeginning: true,
    // The arm's group is its own (a 30 s session): with a shared group's 6 s session, the member rejoined during the
    // idle 10 s (kafkajs heartbeats between fetches, which wait up to 5 s) and read the topic again from its start.
    ephemeral: true,
    onBatch: async (batch) => {
      for (const r of batch.records) if (r.value) onValue(r.value);
    },
    onCrash: (err) => fail(err),
  });
  await waitFor('the kafkajs member joined', () => member.joined(), POLL);
  return {
    send: async (key, value) => void (await publisher.send(topic, [{ key, value }])),
    stop: async () => {
      await member.stop();
      await publisher.close();
    },
  };
}

/** The part of @confluentinc/kafka-javascript's KafkaJS-compatible API the arm uses. */
type RdKafkaModule = {
  KafkaJS: {
    Kafka: new (config: object) => {
      producer(config: object): {
        connect(): Promise<void>;
        send(r: { topic: string; messages: { key: string; value: Buffer }[] }): Promise<unknown>;
        disconnect(): Promise<void>;
      };
      consumer(config: object): {
        connect(): Promise<void>;
        subscribe(s: { topics: string[] }): Promise<void>;
        run(r: { eachBatch: (p: { batch: { messages: { value: Buffer | null }[] } }) => Promise<void> }): Promise<void>;
        assignment(): unknown[];
        disconnect(): Promise<void>;
      };
    };
    logLevel: { NOTHING: number };
  };
};

/**
 * rdkafkaClient is the same pair on librdkafka: acks=all and idempotence as the publisher's, linger.ms=0 so that a
 * send is not held back for a batch (records that queue while a request is out still go in one request).
 */
async function rdkafkaClient(
  moduleDir: string,
  bootstrap: string,
  topics: readonly string[],
  onValue: OnValue,
): Promise<ArmClient> {
  const topic = topics[0]!;
  const load = createRequire(join(moduleDir, 'package.json'));
  const { KafkaJS } = load('@confluentinc/kafka-javascript') as RdKafkaModule;
  const kafka = new KafkaJS.Kafka({
    kafkaJS: { brokers: [bootstrap], clientId: 'bench-client', logLevel: KafkaJS.logLevel.NOTHING },
  });
  const producer = kafka.producer({ 'linger.ms': 0, 'enable.idempotence': true, kafkaJS: { acks: -1 } });
  const consumer = kafka.consumer({ kafkaJS: { groupId: `${topic}-rdkafka`, fromBeginning: true, autoCommit: false } });
  await producer.connect();
  await consumer.connect();
  await consumer.subscribe({ topics: [...topics] });
  void consumer
    .run({
      eachBatch: async ({ batch }) => {
        for (const m of batch.messages) if (m.value) onValue(m.value);
      },
    })
    .catch(fail);
  await waitFor('the librdkafka member assigned', () => consumer.assignment().length > 0, POLL);
  return {
    send: async (key, value) => void (await producer.send({ topic, messages: [{ key, value }] })),
    stop: async () => {
      await consumer.disconnect();
      await producer.disconnect();
    },
  };
}

/** round sends `records` records at `rate` a second (each at its time, not waiting for the one before) and waits for all. */
async function round(client: ArmClient, received: () => number, records: number, rate: number): Promise<void> {
  const start = performance.now();
  const sends: Promise<void>[] = [];
  for (let i = 0; i < records; i++) {
    const due = start + (i * 1000) / rate;
    if (due > performance.now()) await new Promise((r) => setTimeout(r, due - performance.now()));
    const value = Buffer.alloc(VALUE_BYTES, i % 251);
    value.writeDoubleLE(performance.timeOrigin + performance.now(), 0);
    sends.push(client.send(`key-${i % 1000}`, value));
  }
  await Promise.all(sends);
  await waitFor(`${records} records read back`, () => received() >= records, POLL);
}

async function main(): Promise<void> {
  const [client, bootstrap, topic, records, rate, moduleDir, idle] = process.argv.slice(2) as [string, ...string[]];
  const topics = [topic!, ...(idle ?? '').split(',').filter((t) => t !== '')];
  const latencies: number[] = [];
  const onValue: OnValue = (v) => latencies.push(performance.timeOrigin + performance.now() - v.readDoubleLE(0));
  const arm =
    client === 'kafkajs'
      ? await kafkajsClient(bootstrap!, topics, onValue)
      : await rdkafkaClient(moduleDir!, bootstrap!, topics, onValue);
  const cpu = process.cpuUsage();
  const started = performance.now();
  await round(arm, () => latencies.length, Number(records), Number(rate));
  const used = process.cpuUsage(cpu);
  const seconds = (performance.now() - started) / 1000;
  const [rssMB, received] = [process.memoryUsage().rss / 2 ** 20, latencies.length];
  const [p50, p99] = [percentile(latencies, 50), percentile(latencies, 99)];
  const idleCpuSPerMin = await idleCpu(IDLE_SECONDS);
  if (latencies.length !== Number(records)) fail(new Error(`${latencies.length} records read of ${records} sent`));
  await arm.stop();
  const cpuS = (used.user + used.system) / 1e6;
  console.log(JSON.stringify({ client, records: received, cpuS, seconds, p50, p99, rssMB, idleCpuSPerMin }));
}

/** idleCpu is the CPU-s a minute the client spends with nothing to send or read (its polls, heartbeats, timers). */
async function idleCpu(seconds: number): Promise<number> {
  const before = process.cpuUsage();
  await new Promise((r) => setTimeout(r, seconds * 1000));
  const used = process.cpuUsage(before);
  return ((used.user + used.system) / 1e6) * (60 / seconds);
}

function fail(err: unknown): never {
  console.error(err);
  process.exit(1);
}

await main();
