import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { BESIDE_KCM_BUS } from '@kcm-bus/stack/config.ts';
import { backgroundControllers, NODES, SCHEDULER_QPS } from './bench-stack.ts';
import { figuresOfRun, type SavedRun, type ScenarioRun } from './figures.ts';
import { nextFiguresFile, parseFigures } from './figures-file.ts';
import { syncMeasuredTable } from './readme-table.ts';
import type { Row } from './scenario.ts';
import { KAFKA_AUTH } from './systems.ts';
import { formatTable } from './table.ts';

const ROOT = resolve(import.meta.dirname, '../..');

/** FIGURES is docs/figures.md, the current figure of every row; README is the README whose table shows a few. */
const FIGURES = join(ROOT, 'docs/figures.md');
const README = join(ROOT, 'README.md');

/** SIZES are the size knobs bench.json records with the settings. */
const SIZES = ['BENCH_PODS', 'BENCH_STEPS', 'BENCH_S6_PODS', 'BENCH_S9_PODS'];

/**
 * RunSoFar is what a run has measured when one of its scenarios ends: the commit it measures (runCommit), each
 * scenario's end and knobs by id, the rows of the table, and each scenario's figures for bench.json, by id.
 */
export type RunSoFar = {
  readonly commit: string;
  readonly scenarios: Readonly<Record<string, ScenarioRun>>;
  readonly rows: readonly Row[];
  readonly data: Readonly<Record<string, unknown>>;
};

/**
 * runCommit is the commit a run measures: `git rev-parse --short HEAD`, with `-dirty` when a file other than
 * Markdown differs from it (the figures the bench writes change no figure); `unknown` outside a git checkout.
 */
export function runCommit(): string {
  const git = (...args: string[]): string => execFileSync('git', args, { cwd: ROOT, encoding: 'utf8' }).trim();
  try {
    const sha = git('rev-parse', '--short', 'HEAD');
    return git('status', '--porcelain', '--', '.', ':(exclude,glob)**/*.md') === '' ? sha : `${sha}-dirty`;
  } catch {
    return 'unknown';
  }
}

/** heading is the table's first line: when, on what machine, with what background and Kafka. */
function heading(at: string, cores: number): string {
  const background = backgroundControllers() || 'none';
  const shown =
    background === BESIDE_KCM_BUS ? 'every one kcm-bus does not replace (BENCH_BACKGROUND=full)' : background;
  const kafka = KAFKA_AUTH ? 'TLS, SCRAM per service, ACLs (BENCH_KAFKA_AUTH=1)' : 'plaintext';
  return `kcm-bus vs upstream kube-controller-manager, ${at}, ${cores} cores, background controllers: ${shown}, Kafka: ${kafka}, \`npm run bench\``;
}

/**
 * writeFigures merges a run's rows into docs/figures.md (nextFiguresFile) and rewrites README.md's "Measured" table
 * from the result (syncMeasuredTable).
 */
export function writeFigures(run: SavedRun): void {
  const figures = nextFiguresFile(existsSync(FIGURES) ? readFileSync(FIGURES, 'utf8') : '', figuresOfRun(run));
  writeFileSync(FIGURES, figures);
  writeFileSync(README, syncMeasuredTable(readFileSync(README, 'utf8'), parseFigures(figures).figures));
}

/**
 * report prints the table so far, rewrites <out>/bench.json (a failing later scenario keeps the earlier figures)
 * and writes the rows into docs/figures.md and README.md (writeFigures).
 */
export function report(out: string, run: RunSoFar): void {
  const at = new Date().toISOString();
  const machine = { cores: cpus().length, memoryGiB: Math.round(totalmem() / 2 ** 30), node: process.version };
  console.log(`\n${heading(at, machine.cores)}\n${formatTable(run.rows)}`);
  mkdirSync(out, { recursive: true });
  const sizes = Object.fromEntries(SIZES.map((k) => [k, process.env[k] ?? 'default']));
  const settings = {
    kwokNodes: NODES,
    schedulerQps: SCHEDULER_QPS,
    backgroundControllers: backgroundControllers(),
    ...sizes,
  };
  const saved = { at, machine, commit: run.commit, settings, scenarios: run.scenarios, rows: run.rows, data: run.data };
  writeFileSync(join(out, 'bench.json'), `${JSON.stringify(saved, null, 2)}\n`);
  writeFigures(saved);
}

/** figuresFrom writes the rows of a saved bench.json into docs/figures.md and README.md, as its run would have. */
export function figuresFrom(path: string): void {
  const run = JSON.parse(readFileSync(path, 'utf8')) as SavedRun;
  if (typeof run.at !== 'string' || !Array.isArray(run.rows))
    throw new Error(`${path} is no bench.json: no at, no rows`);
  writeFigures(run);
  console.log(
    `docs/figures.md and README.md: ${run.rows.length} rows of ${path} (${run.at}, ${run.commit ?? 'commit unknown'})`,
  );
}
