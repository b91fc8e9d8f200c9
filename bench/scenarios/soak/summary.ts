import { total } from '../../lib/stats.ts';
import {
  climbsAfter,
  p99Outside,
  slopePerTenMinutes,
  stepAcross,
  type Climb,
  type MemoryStep,
  type Timed,
  type Window,
} from './figures.ts';
import type { SoakRun } from './run.ts';

/** ServiceFigures are one running service's (a slot's) memory and, for a reconciler, lag figures over the soak. */
export type ServiceFigures = {
  readonly slot: string;
  readonly slopeMb: number | undefined;
  /** quietSlopeMb and heapSlopeMb are the RSS's and the heap's slopes between faults (figures.ts). */
  readonly quietSlopeMb: number | undefined;
  readonly heapSlopeMb: number | undefined;
  readonly firstMb: number | undefined;
  readonly lastMb: number | undefined;
  readonly maxMb: number;
  readonly ageP99S: number | undefined;
  readonly ageMaxS: number | undefined;
  readonly lagP99S: number | undefined;
  readonly lagMaxS: number | undefined;
  /** joins are the slot's consumer group joins by group, over all its processes: a member's first join and its rejoins. */
  readonly joins: Readonly<Record<string, number>>;
  /** cpuPerMinute is the CPU seconds the slot's processes used, added up, per minute of the soak. */
  readonly cpuPerMinute: number;
};

/** Summary is the soak's figures and the goals' verdicts. */
export type Summary = {
  readonly services: readonly ServiceFigures[];
  readonly recordsLagP99: Readonly<Record<string, number | undefined>>;
  readonly overCreated: number;
  readonly lost: number;
  readonly restarts: number;
  readonly kafkaRequestsPerMinute: number;
  readonly steps: number;
  readonly failedSteps: number;
  readonly settledS: number | undefined;
  readonly faults: readonly string[];
  /** faultSteps are, per fault, how each service's RSS and its parts moved across it (a process that lived through it). */
  readonly faultSteps: readonly FaultSteps[];
  /** climbs are, per slot, how each process's memory moved by part from the end of its warm-up to its last reading. */
  readonly climbs: readonly { readonly slot: string; readonly climbs: readonly Climb[] }[];
};

/** FaultSteps are the services' memory steps across one fault. */
export type FaultSteps = {
  readonly fault: string;
  readonly steps: readonly { readonly slot: string; readonly step: MemoryStep }[];
};

/** SLOPE_GOAL_MB and LAG_GOAL_S are issue 47's goals: memory slope per 10 minutes, lag p99 outside the faults. */
export const SLOPE_GOAL_MB = 1;
export const LAG_GOAL_S = 1;

/** summarize turns a soak's readings into its figures; warmUpS of each process's life are left out of its slope. */
export function summarize(r: SoakRun, warmUpS: number): Summary {
  const windows: Window[] = r.faults.map((f) => f.window);
  const lastT = Math.max(1, ...[...r.readings.rss.values()].flatMap((s) => s.map((x) => x.t)));
  const services = [...r.readings.rss].map(([slot, rss]): ServiceFigures => {
    const warm = rss.filter((s) => s.t >= warmUpS);
    const ages = r.readings.watermarkAgeS.get(slot) ?? [];
    const lags = r.readings.lagS.get(slot) ?? [];
    return {
      slot,
      slopeMb: slopePerTenMinutes(rss, warmUpS),
      quietSlopeMb: slopePerTenMinutes(rss, warmUpS, windows),
      heapSlopeMb: slopePerTenMinutes(r.readings.heapUsed.get(slot) ?? [], warmUpS, windows),
      firstMb: warm[0]?.mb,
      lastMb: rss.at(-1)?.mb,
      maxMb: Math.max(...rss.map((s) => s.mb)),
      ageP99S: p99Outside(ages, windows),
      ageMaxS: most(ages),
      lagP99S: p99Outside(lags, windows),
      lagMaxS: most(lags),
      joins: joinsOf(r.readings.groupJoins.get(slot)),
      cpuPerMinute: total([...(r.readings.cpuS.get(slot)?.values() ?? [])]) / (lastT / 60),
    };
  });
  return {
    services,
    recordsLagP99: Object.fromEntries([...r.readings.recordsLag].map(([s, lag]) => [s, p99Outside(lag, windows)])),
    overCreated: total(r.overCreated),
    lost: total(r.lost),
    restarts: r.restarts,
    kafkaRequestsPerMinute: Math.round(r.readings.kafkaRequests / (lastT / 60)),
    steps: r.steps,
    failedSteps: r.failedSteps,
    settledS: r.settledS,
    faults: r.faults.map(faultText),
    faultSteps: faultStepsOf(r),
    climbs: [...r.readings.parts].map(([slot, parts]) => ({ slot, climbs: climbsAfter(parts, warmUpS) })),
  };
}

/** faultText names a fault with its window, in minutes, and the error it ended in, if any. */
const faultText = (f: SoakRun['faults'][number]): string =>
  `${f.name} (${(f.window[0] / 60).toFixed(1)}-${(f.window[1] / 60).toFixed(1)} min)${f.error ? `: ${f.error}` : ''}`;

/** faultStepsOf are each fault's memory steps, of the processes that lived through it. */
function faultStepsOf(r: SoakRun): FaultSteps[] {
  return r.faults.map((f) => ({
    fault: faultText(f),
    steps: [...r.readings.parts].flatMap(([slot, parts]) => {
      const step = stepAcross(parts, f.window);
      return step === undefined ? [] : [{ slot, step }];
    }),
  }));
}

/** joinsOf adds up the joins of a slot's processes, by group. */
export function joinsOf(
  byPid: ReadonlyMap<number, Readonly<Record<string, number>>> = new Map(),
): Record<string, number> {
  const joins: Record<string, number> = {};
  for (const counts of byPid.values())
    for (const [group, n] of Object.entries(counts)) joins[group] = (joins[group] ?? 0) + n;
  return joins;
}

/** joinsText is a slot's joins by group. */
export const joinsText = (joins: Readonly<Record<string, number>>): string =>
  Object.entries(joins)
    .map(([g, n]) => `${g} ${n}`)
    .join(', ') || 'none';

const most = (xs: readonly Timed[]): number | undefined =>
  xs.length === 0 ? undefined : Math.max(...xs.map((x) => x.v));

const verdict = (slopes: readonly number[]): string => (Math.max(...slopes) <= SLOPE_GOAL_MB ? 'met' : 'not met');

const fixed = (v: number | undefined, digits = 1): string => (v === undefined ? '-' : v.toFixed(digits));

const signed = (v: number): string => `${v >= 0 ? '+' : ''}${v.toFixed(1)}`;

/** PARTS names the parts stepText prints a step's RSS in. */
const PARTS = "V8 heap committed, Buffers, file-backed, the rest; of the anonymous: malloc's arenas, outside them";

/** stepText is one step of a service's RSS, by part (PARTS). */
const stepText = (x: MemoryStep): string => {
  const rest = x.rss - x.heap - x.buffers - x.file;
  const anon = `${signed(x.malloc)}, ${signed(x.anon - x.malloc)}`;
  return `${signed(x.rss)} (${[x.heap, x.buffers, x.file, rest].map(signed).join(', ')}; ${anon})`;
};

/** stepsText prints each fault's memory steps, by part. */
export function stepsText(faultSteps: readonly FaultSteps[]): string[] {
  return [
    `RSS steps across the faults, MB (${PARTS}), of the processes that lived through them:`,
    ...faultSteps.map(
      ({ fault, steps }) =>
        `  ${fault}: ${steps.map(({ slot, step }) => `${slot} ${stepText(step)}`).join('; ') || 'none'}`,
    ),
  ];
}

/** climbsText prints how each process's RSS moved after its warm-up, by part: where the slopes' megabytes went. */
export function climbsText(climbs: Summary['climbs']): string[] {
  const minutes = (t: number): string => (t / 60).toFixed(1);
  return [
    `RSS of each process from the end of its warm-up to its last reading, MB (${PARTS}):`,
    ...climbs.flatMap(({ slot, climbs: of }) =>
      of.map((c) => `  ${slot} (pid ${c.pid}, ${minutes(c.fromT)}-${minutes(c.toT)} min): ${stepText(c.step)}`),
    ),
  ];
}

/** summaryText prints the soak's figures: a line per service, the lag in records, the checks and the goals. */
export function summaryText(s: Summary): string {
  const head = `${'service'.padEnd(22)}${'MB/10 min'.padStart(10)}${'quiet'.padStart(7)}${'heap'.padStart(7)}${'RSS warm → end'.padStart(16)}${'most'.padStart(7)}${'age p99'.padStart(9)}${'age max'.padStart(9)}${'lag p99'.padStart(9)}${'lag max'.padStart(9)}${'CPU-s/min'.padStart(10)}`;
  const lines = s.services.map(
    (x) =>
      `${x.slot.padEnd(22)}${fixed(x.slopeMb, 2).padStart(10)}${fixed(x.quietSlopeMb, 2).padStart(7)}${fixed(x.heapSlopeMb, 2).padStart(7)}${`${fixed(x.firstMb, 0)} → ${fixed(x.lastMb, 0)}`.padStart(16)}` +
      `${x.maxMb.toFixed(0).padStart(7)}${fixed(x.ageP99S, 2).padStart(9)}${fixed(x.ageMaxS, 2).padStart(9)}` +
      `${fixed(x.lagP99S, 2).padStart(9)}${fixed(x.lagMaxS, 2).padStart(9)}${x.cpuPerMinute.toFixed(2).padStart(10)}`,
  );
  const slopes = s.services.map((x) => x.slopeMb ?? 0);
  const quiet = s.services.map((x) => x.quietSlopeMb ?? 0);
  const lags = s.services.flatMap((x) => (x.lagP99S === undefined ? [] : [x.lagP99S]));
  return [
    'soak: memory (MB; slopes per 10 min after warm-up: RSS, RSS between faults, V8 heap in use between faults);',
    'input watermark age and lag behind the watcher (s; p99 outside the fault windows); CPU-s a minute over the run',
    head,
    ...lines,
    `consumer lag p99 outside faults, records: ${Object.entries(s.recordsLagP99)
      .map(([k, v]) => `${k} ${fixed(v, 0)}`)
      .join(', ')}`,
    `changes ${s.steps} (${s.failedSteps} refused), faults: ${s.faults.join('; ')}`,
    `over-created ${s.overCreated}, lost ${s.lost}, exited on their own ${s.restarts}, settled at the end in ${fixed(s.settledS)} s`,
    `Kafka requests a minute ${s.kafkaRequestsPerMinute}; the services' CPU-s a minute ${total(s.services.map((x) => x.cpuPerMinute)).toFixed(2)}`,
    `consumer group joins (first joins and rejoins): ${s.services.map((x) => `${x.slot} ${total(x.joins)} (${joinsText(x.joins)})`).join('; ')}`,
    ...stepsText(s.faultSteps),
    ...climbsText(s.climbs),
    `goal memory slope ≤ ${SLOPE_GOAL_MB} MB/10 min: ${verdict(slopes)}, between faults ${verdict(quiet)}; ` +
      `goal lag behind the watcher p99 ≤ ${LAG_GOAL_S} s: ${Math.max(...lags) <= LAG_GOAL_S ? 'met' : 'not met'}`,
  ].join('\n');
}
