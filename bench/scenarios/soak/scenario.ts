/**
 * `npm run soak` (`npm run soak:cluster` on three Kafka nodes): an hour of churn on the chaos system (a watcher, a
 * writer, two reconciler-rc members, reconciler-endpoint and reconciler-node, each started again when it exits, as
 * a Deployment would: chaos/system.ts), at --kube-api-qps 20/30. SOAK_PAIRS RCs and as many ReplicaSets, each alone
 * in a namespace behind a Service, are scaled at random between 0 and SOAK_MAX_PODS every SOAK_CHURN_S (a Service
 * deleted and created again every fifth time), and the chaos list's faults (CHAOS_ONLY's) are injected in turn, one
 * every SOAK_FAULT_S. Every SOAK_SAMPLE_S it reads each service's RSS, each reconciler's input watermark age and lag behind
 * the watcher, each service's consumer lag in records, and counts Kafka requests (sampler.ts). It prints, and draws (bench/out/soak-rss.svg,
 * soak-lag.svg, the faults shaded; every reading in soak-readings.json): each service's memory slope after warm-up
 * (one line per process: a killed service's replacement starts over; and between faults, RSS and V8 heap in use), the lag's p99 outside the fault windows, pods over-created (against the
 * targets in effect, figures.ts) and lost, and the services that exited on their own.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { knob, numberKnob } from '../../lib/knobs.ts';
import type { BenchContext, Row, Scenario } from '../../lib/scenario.ts';
import { lineChart } from '../../lib/svg-chart.ts';
import { ONLY_KNOB } from '../chaos/faults.ts';
import { soak, type SoakPlan, type SoakRun } from './run.ts';
import { total } from '../../lib/stats.ts';
import { joinsText, summarize, summaryText, type Summary } from './summary.ts';

const KNOBS = {
  minutes: knob('SOAK_MINUTES', '60', 'minutes of churn'),
  churnS: knob('SOAK_CHURN_S', '20', 'seconds between two changes of the workload'),
  faultS: knob('SOAK_FAULT_S', '300', 'seconds between two faults (the chaos list in turn)'),
  sampleS: knob('SOAK_SAMPLE_S', '10', 'seconds between two readings of RSS and lag'),
  settleS: knob('SOAK_SETTLE_S', '60', "seconds a fault's window lasts after it ran its course"),
  warmUpS: knob('SOAK_WARMUP_S', '600', "seconds of each process's life left out of its memory slope"),
  pairs: knob('SOAK_PAIRS', '3', 'RCs, and as many ReplicaSets, each in its own namespace behind a Service'),
  maxPods: knob('SOAK_MAX_PODS', '40', 'most replicas a change gives a controller'),
  seed: knob('SOAK_SEED', '1', "the churn's random seed"),
} as const;

const COLORS = ['#1f77b4', '#d62728', '#2ca02c', '#9467bd', '#ff7f0e', '#8c564b', '#e377c2', '#17becf', '#7f7f7f'];

async function run(ctx: BenchContext): Promise<{ rows: Row[]; data: unknown }> {
  const n = (k: keyof typeof KNOBS): number => numberKnob(KNOBS[k]);
  const plan: SoakPlan = {
    minutes: n('minutes'),
    churnS: n('churnS'),
    faultS: n('faultS'),
    sampleS: n('sampleS'),
    settleS: n('settleS'),
    pairs: n('pairs'),
    maxPods: n('maxPods'),
    seed: n('seed'),
  };
  const result = await soak(ctx, plan);
  const summary = summarize(result, n('warmUpS'));
  console.log(`\n${summaryText(summary)}\n`);
  draw(ctx, result);
  writeFileSync(join(ctx.out, 'soak-readings.json'), JSON.stringify(readingsJson(result), null, 1));
  return { rows: rowsOf(summary), data: { plan, summary, faults: result.faults } };
}

/** draw writes the RSS and the input watermark age over time, one line per service, the fault windows shaded. */
function draw(ctx: BenchContext, r: SoakRun): void {
  mkdirSync(ctx.out, { recursive: true });
  const bands = r.faults.map((f) => [f.window[0] / 60, f.window[1] / 60] as const);
  const lines = <T>(m: Map<string, T[]>, point: (s: T) => readonly [number, number]) =>
    [...m].map(([name, samples], i) => ({ name, color: COLORS[i % COLORS.length]!, points: samples.map(point) }));
  const rss = lines(r.readings.rss, (s) => [s.t / 60, s.mb]);
  const lag = lines(r.readings.lagS, (s) => [s.t / 60, s.v]);
  const chart = (title: string, yLabel: string, l: typeof rss) =>
    lineChart({ title, xLabel: 'minutes', yLabel, lines: l, bands });
  writeFileSync(join(ctx.out, 'soak-rss.svg'), chart('soak: RSS of each service (faults shaded)', 'MB', rss));
  writeFileSync(
    join(ctx.out, 'soak-lag.svg'),
    chart('soak: each reconciler behind the watcher (faults shaded)', 'seconds', lag),
  );
}

/** readingsJson is every reading of the soak and its fault windows, for another look without another hour. */
function readingsJson(r: SoakRun): unknown {
  const { kafkaRequests, groupJoins, cpuS, ...series } = r.readings;
  const bySlot = <T>(m: Map<string, Map<number, T>>) =>
    Object.fromEntries([...m].map(([slot, byPid]) => [slot, Object.fromEntries(byPid)]));
  return {
    faults: r.faults,
    kafkaRequests,
    groupJoins: bySlot(groupJoins),
    cpuS: bySlot(cpuS),
    ...Object.fromEntries(Object.entries(series).map(([k, m]) => [k, Object.fromEntries(m)])),
  };
}

function rowsOf(s: Summary): Row[] {
  const note = `over-created ${s.overCreated}, lost ${s.lost}, exited on their own ${s.restarts}`;
  return [
    ...s.services.map((x) => ({
      scenario: `soak ${x.slot} RSS slope after warm-up, MB per 10 min`,
      unit: 'MB',
      kcmBus: x.slopeMb,
      note:
        `RSS ${x.firstMb?.toFixed(0)} → ${x.lastMb?.toFixed(0)} MB, most ${x.maxMb.toFixed(0)}; between faults: ` +
        `RSS ${x.quietSlopeMb?.toFixed(1)}, heap in use ${x.heapSlopeMb?.toFixed(1)} MB per 10 min`,
    })),
    ...s.services.flatMap((x) =>
      x.lagP99S === undefined
        ? []
        : [
            {
              scenario: `soak ${x.slot} behind the watcher, p99 outside faults`,
              unit: 'ms',
              kcmBus: x.lagP99S * 1000,
              note: `most ${x.lagMaxS?.toFixed(2)} s; input watermark age p99 ${x.ageP99S?.toFixed(2)} s`,
            },
          ],
    ),
    ...s.services.map((x) => ({
      scenario: `soak ${x.slot} consumer group joins`,
      unit: 'joins',
      kcmBus: total(x.joins),
      note: `by group: ${joinsText(x.joins)}; a member's first join and every rejoin, over all its processes`,
    })),
    ...s.services.map((x) => ({
      scenario: `soak ${x.slot} CPU-s a minute`,
      unit: 's',
      kcmBus: x.cpuPerMinute,
      note: 'user and system CPU of all its processes (a killed one and its replacement), over the run',
    })),
    { scenario: 'soak Kafka requests a minute', unit: 'requests', kcmBus: s.kafkaRequestsPerMinute, note },
  ];
}

/** soak runs only when asked for (`npm run soak`, or `npm run bench -- --only soak`). */
export const scenario: Scenario = {
  id: 'soak',
  name: 'soak',
  title: `${numberKnob(KNOBS.minutes)} minutes of churn with a fault every ${numberKnob(KNOBS.faultS)} s`,
  run,
  onlyWhenAsked: true,
  knobs: [...Object.values(KNOBS), ONLY_KNOB],
  measures:
    "RCs, ReplicaSets and Services changed at random for SOAK_MINUTES, a chaos fault every SOAK_FAULT_S: each service's " +
    'RSS slope, lag p99 outside the faults, Kafka requests, pods over-created and lost',
};
