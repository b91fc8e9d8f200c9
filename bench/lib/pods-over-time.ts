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
  const w = 720,
    h = 400,
    pad = 50;
  const maxT = Math.max(1, ...lines.flatMap((l) => l.series.map((s) => s.t)));
  const maxN = Math.max(1, ...lines.flatMap((l) => l.series.map((s) => s.exist)));
  const x = (t: number): number => pad + (t / maxT) * (w - 2 * pad);
  const y = (n: number): number => h - pad - (n / maxN) * (h - 2 * pad);
  const paths = lines.map(
    (l, i) =>
      `<polyline fill="none" stroke="${l.color}" stroke-width="2" points="${l.series.map((s) => `${x(s.t).toFixed(1)},${y(s.exist).toFixed(1)}`).join(' ')}"/>` +
      `<text x="${w - pad - 160}" y="${pad + 18 * i}" fill="${l.color}" font-size="13">${l.name}</text>`,
  );
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" font-family="sans-serif">
<rect width="100%" height="100%" fill="white"/><text x="${pad}" y="24" font-size="15">${title}</text>
<line x1="${pad}" y1="${h - pad}" x2="${w - pad}" y2="${h - pad}" stroke="black"/><line x1="${pad}" y1="${pad}" x2="${pad}" y2="${h - pad}" stroke="black"/>
<text x="${w / 2}" y="${h - 12}" font-size="12">seconds (0 to ${maxT.toFixed(1)})</text><text x="8" y="${pad - 8}" font-size="12">pods (max ${maxN})</text>
${paths.join('\n')}
</svg>
`;
}
