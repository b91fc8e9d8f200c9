import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { BESIDE_KCM_BUS } from '@kcm-bus/stack/config.ts';
import { backgroundControllers, NODES, SCHEDULER_QPS } from './bench-stack.ts';
import type { Row } from './scenario.ts';
import { KAFKA_AUTH } from './systems.ts';
import { formatTable } from './table.ts';

/** SIZES are the size knobs bench.json records with the settings. */
const SIZES = ['BENCH_PODS', 'BENCH_STEPS', 'BENCH_S6_PODS', 'BENCH_S9_PODS'];

/** heading is the table's first line: when, on what machine, with what background and Kafka. */
function heading(at: string, cores: number): string {
  const background = backgroundControllers() || 'none';
  const shown =
    background === BESIDE_KCM_BUS ? 'every one kcm-bus does not replace (BENCH_BACKGROUND=full)' : background;
  const kafka = KAFKA_AUTH ? 'TLS, SCRAM per service, ACLs (BENCH_KAFKA_AUTH=1)' : 'plaintext';
  return `kcm-bus vs upstream kube-controller-manager, ${at}, ${cores} cores, background controllers: ${shown}, Kafka: ${kafka}, \`npm run bench\``;
}

/** report prints the table so far and rewrites <out>/bench.json (a failing later scenario keeps the earlier figures). */
export function report(out: string, rows: readonly Row[], data: Record<string, unknown>): void {
  const at = new Date().toISOString();
  const machine = { cores: cpus().length, memoryGiB: Math.round(totalmem() / 2 ** 30), node: process.version };
  console.log(`\n${heading(at, machine.cores)}\n${formatTable(rows)}`);
  mkdirSync(out, { recursive: true });
  const sizes = Object.fromEntries(SIZES.map((k) => [k, process.env[k] ?? 'default']));
  const settings = {
    kwokNodes: NODES,
    schedulerQps: SCHEDULER_QPS,
    backgroundControllers: backgroundControllers(),
    ...sizes,
  };
  writeFileSync(join(out, 'bench.json'), `${JSON.stringify({ at, machine, settings, rows, data }, null, 2)}\n`);
}
