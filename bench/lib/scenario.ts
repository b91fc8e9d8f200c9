import type { StackConfig } from '@kcm-bus/stack/config.ts';
import type { StackEndpoints } from '@kcm-bus/stack/endpoints.ts';
import type { RawKube } from '@kcm-bus/harness/kube.ts';

/**
 * Row is one line of the benchmark table: a figure measured under upstream kube-controller-manager and under
 * kcm-bus (either may be absent when the scenario has no counterpart), in `unit`. The ratio is kcm-bus / upstream.
 */
export type Row = {
  readonly scenario: string;
  readonly unit: string;
  readonly upstream?: number | undefined;
  readonly kcmBus?: number | undefined;
  readonly note?: string;
};

/** ScenarioResult is a scenario's rows for the table and every figure it measured, for bench/out/bench.json. */
export type ScenarioResult = { readonly rows: readonly Row[]; readonly data: unknown };

/**
 * BenchContext is what every scenario gets: the running bench stack (4 kwok nodes, kube-scheduler at 1000 qps,
 * the watcher already running), an admin API client, a run id to make namespaces unique, the output folder
 * (plots) and a progress logger (stderr). A scenario starts the systems it compares (bench/lib/systems.ts), cleans
 * up what it created and stops what it started, also when it fails.
 */
export type BenchContext = {
  readonly e: StackEndpoints;
  /** stack is the bench stack's configuration (its parts can be restarted: packages/harness/src/restart.ts). */
  readonly stack: StackConfig;
  readonly kube: RawKube;
  readonly runId: string;
  readonly out: string;
  readonly log: (line: string) => void;
};

/**
 * Knob is an environment variable a scenario (or the whole run) reads: its name, its value when unset (none: the
 * variable only overrides something) and what it sets. Scenarios read their knobs through bench/lib/knobs.ts, and
 * `npm run bench -- --list` prints them from here.
 */
export type Knob = { readonly env: string; readonly default?: string; readonly meaning: string };

/**
 * Scenario is the export `scenario` of bench/scenarios/<name>/scenario.ts. `id` is its S-number as docs/benchmarks.md
 * names it (s1, s4s, ...; its rows start with it) and what `npm run bench -- --only s1,s8` picks by; `name` is its
 * folder; `measures` says what it measures and `knobs` lists the variables it reads (both printed by `--list`);
 * `title` is its progress line, with the sizes in effect.
 */
export type Scenario = {
  readonly id: string;
  readonly name: string;
  readonly title: string;
  readonly measures: string;
  readonly knobs: readonly Knob[];
  readonly run: (ctx: BenchContext) => Promise<ScenarioResult>;
  /** onlyWhenAsked: left out of a run without --only (the chaos run, which measures no side by side). */
  readonly onlyWhenAsked?: boolean;
};
