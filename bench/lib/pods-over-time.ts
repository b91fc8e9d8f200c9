import { lineChart } from './svg-chart.ts';
import type { RawKube } from '@kcm-bus/harness/kube.ts';

/** Sample is one observation of a namespace: seconds since the start, pods existing, pods Running. */
export type Sample = { readonly t: number; readonly exist: number; readonly running: number };

/** PodsOverTime is a sampled run: the series and the seconds at which the target count existed and ran. */
export type PodsOverTime = { readonly series: Sample[]; readonly exist?: number; readonly running?: number };

type PodList = { items: { status?: { phase?: string }; metadata: { deletionTimestamp?: string } }[] };

/**
 * samplePods polls a namespace's pods every intervalMs until `target` of them run (or the deadline) and returns
 * the series and the seconds at which `target` pods existed and ran.
 */
export async function samplePods(
  kube: RawKube,
  ns: string,
  target: number,
  started: number,
  deadlineMs: number,
): Promise<PodsOverTime> {
  const series: Sample[] = [];
  let exist: number | undefined;
  let running: number | undefined;
  while (running === undefined && performance.now() - started < deadlineMs) {
    const list = (await kube('GET', `/api/v1/namespaces/${ns}/pods`)) as unknown as PodList;
    const live = list.items.filter((p) => !p.metadata.deletionTimestamp);
    const t = (performance.now() - started) / 1000;
    const sample = { t, exist: live.length, running: live.filter((p) => p.status?.phase === 'Running').length };
    series.push(sample);
    if (exist === undefined && sample.exist >= target) exist = t;
    if (sample.running >= target) running = t;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return { series, ...(exist === undefined ? {} : { exist }), ...(running === undefined ? {} : { running }) };
}

/** svgPlot draws pods existing over time, one line per system, as a standalone SVG. */
export function svgPlot(
  title: string,
  lines: readonly { readonly name: string; readonly color: string; readonly series: readonly Sample[] }[],
): string {
  return lineChart({
    title,
    xLabel: 'seconds',
    yLabel: 'pods',
    lines: lines.map((l) => ({ name: l.name, color: l.color, points: l.series.map((s) => [s.t, s.exist] as const) })),
  });
}
