/**
 * `npm run bench:client` — what a Kafka client costs kcm-bus's traffic: records sent one per send (acks=all,
 * idempotent) at a paced rate and read back by a consumer group in the same process, through the runtime's bus on
 * kafkajs (the anchor, what every service runs) and through Confluent's librdkafka client
 * (@confluentinc/kafka-javascript, built into the cache the first time; no service depends on it). Each arm is a
 * process of its own (kafka-client-arm.ts), so its CPU is its process's; the two alternate round by round against one
 * broker of the stack's Kafka on free ports, stopped at the end. Knobs: BENCH_CLIENT_RECORDS (3000),
 * BENCH_CLIENT_RATES (records a second, "100,1000"), BENCH_CLIENT_ROUNDS (3), BENCH_CLIENT_IDLE_TOPICS (0: how many
 * topics of 6 partitions, never sent to, each consumer reads beside its own, as a reconciler reads the quiet
 * partitions of its inputs: reconciler-rc's group reads 30).
 */
import { execFile } from 'node:child_process';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { kafkaBus } from '@kcm-bus/runtime/bus/bus.kafka.ts';
import { serviceLaunch } from '@kcm-bus/runtime/service/index.ts';
import { kafkaJavascriptRecipe } from '@kcm-bus/stack/build/kafka-javascript.ts';
import { selectedKafka } from '@kcm-bus/stack/kafka-versions.ts';
import { startStandaloneKafka, type StandaloneKafka } from '@kcm-bus/stack/kafka-standalone.ts';
import { obtain } from '@kcm-bus/stack/obtain.ts';
import { percentile } from '../lib/stats.ts';

const RECORDS = Number(process.env['BENCH_CLIENT_RECORDS'] ?? 3000);
const RATES = (process.env['BENCH_CLIENT_RATES'] ?? '100,1000').split(',').map(Number);
const ROUNDS = Number(process.env['BENCH_CLIENT_ROUNDS'] ?? 3);
const IDLE_TOPICS = Array.from(
  { length: Number(process.env['BENCH_CLIENT_IDLE_TOPICS'] ?? 0) },
  (_, i) => `bench-client-idle-${i}`,
);
const CLIENTS = ['kafkajs', 'librdkafka'] as const;
const ARM_DEADLINE_MS = 600_000;

type Client = (typeof CLIENTS)[number];
type ArmResult = {
  client: Client;
  cpuS: number;
  seconds: number;
  p50: number;
  p99: number;
  rssMB: number;
  idleCpuSPerMin: number;
};

/** arm runs one client's round in a process of its own on a topic of its own and returns what it printed. */
async function arm(kafka: StandaloneKafka, moduleDir: string, client: Client, topic: string, rate: number) {
  const script = join(import.meta.dirname, 'kafka-client-arm.ts');
  const args = [client, kafka.bootstrap, topic, String(RECORDS), String(rate), moduleDir, IDLE_TOPICS.join(',')];
  const launch = serviceLaunch(script, args);
  const opts = { timeout: ARM_DEADLINE_MS, env: launch.env };
  return new Promise<ArmResult>((resolve, reject) => {
    execFile(launch.command, launch.args, opts, (err, stdout, stderr) => {
      if (err) reject(new Error(`${client} arm failed: ${err.message}\n${stderr}`));
      else resolve(JSON.parse(stdout.trim().split('\n').at(-1) ?? '') as ArmResult);
    });
  });
}

/** rounds alternates the clients (the first of each round takes turns), each on a fresh topic of 6 partitions. */
async function rounds(kafka: StandaloneKafka, moduleDir: string, rate: number): Promise<ArmResult[]> {
  const bus = kafkaBus({ brokers: [kafka.bootstrap], clientId: 'bench-client-admin' });
  const results: ArmResult[] = [];
  await bus.ensureTopics(IDLE_TOPICS.map((topic) => ({ topic, partitions: 6, configs: {} })));
  for (let r = 0; r < ROUNDS; r++) {
    for (const client of r % 2 === 0 ? CLIENTS : [...CLIENTS].reverse()) {
      const topic = `bench-client-${rate}-${r}-${client}`;
      await bus.ensureTopics([{ topic, partitions: 6, configs: {} }]);
      const result = await arm(kafka, moduleDir, client, topic, rate);
      console.error(`[bench:client] ${rate}/s round ${r + 1} ${client}: ${JSON.stringify(result)}`);
      results.push(result);
    }
  }
  return results;
}

/** row is a client's medians over its rounds at one rate: CPU-s per 1000 records, latency p50/p99, RSS, idle CPU. */
function row(results: readonly ArmResult[], client: Client) {
  const mine = results.filter((r) => r.client === client);
  const median = (f: (r: ArmResult) => number): number => percentile(mine.map(f), 50) ?? NaN;
  return {
    cpu: median((r) => (r.cpuS * 1000) / RECORDS),
    p50: median((r) => r.p50),
    p99: median((r) => r.p99),
    rss: median((r) => r.rssMB),
    idle: median((r) => r.idleCpuSPerMin),
  };
}

function print(byRate: ReadonlyMap<number, ArmResult[]>): void {
  console.log(
    `\n${RECORDS} records a round, ${ROUNDS} rounds, ${IDLE_TOPICS.length} idle topics read beside, ${new Date().toISOString()}, ${cpus().length} cores`,
  );
  console.log('| records/s | client | CPU-s per 1000 records | latency p50 / p99 ms | RSS MB | idle CPU-s a minute |');
  console.log('|---|---|---|---|---|---|');
  for (const [rate, results] of byRate) {
    const anchor = row(results, 'kafkajs');
    for (const client of CLIENTS) {
      const r = row(results, client);
      const ratio = client === 'kafkajs' ? '' : ` (${(r.cpu / anchor.cpu).toFixed(2)}×)`;
      const lat = `${r.p50.toFixed(1)} / ${r.p99.toFixed(1)}`;
      console.log(
        `| ${rate} | ${client} | ${r.cpu.toFixed(3)}${ratio} | ${lat} | ${r.rss.toFixed(0)} | ${r.idle.toFixed(2)} |`,
      );
    }
  }
}

async function main(): Promise<void> {
  const say = (line: string): void => console.error(`[bench:client] ${line}`);
  const moduleDir = await obtain(kafkaJavascriptRecipe, say);
  const kafka = await startStandaloneKafka(selectedKafka(), say);
  try {
    const byRate = new Map<number, ArmResult[]>();
    for (const rate of RATES) byRate.set(rate, await rounds(kafka, moduleDir, rate));
    print(byRate);
  } finally {
    await kafka.stop();
  }
}

await main();
