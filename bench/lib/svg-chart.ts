/** Line is one series of a chart: its name (the legend), colour and points (x, y). */
export type Line = {
  readonly name: string;
  readonly color: string;
  readonly points: readonly (readonly [number, number])[];
};

/** Chart is what lineChart draws: a title, the axes' names, the lines, and spans of x to shade (fault windows). */
export type Chart = {
  readonly title: string;
  readonly xLabel: string;
  readonly yLabel: string;
  readonly lines: readonly Line[];
  readonly bands?: readonly (readonly [number, number])[];
};

const W = 720,
  H = 400,
  PAD = 50;

/** lineChart draws lines over a shared x and y scale from 0 to the largest value, as a standalone SVG a browser opens. */
export function lineChart(c: Chart): string {
  const maxX = Math.max(1, ...c.lines.flatMap((l) => l.points.map((p) => p[0])));
  const maxY = Math.max(1, ...c.lines.flatMap((l) => l.points.map((p) => p[1])));
  const x = (v: number): number => PAD + (v / maxX) * (W - 2 * PAD);
  const y = (v: number): number => H - PAD - (v / maxY) * (H - 2 * PAD);
  const bands = (c.bands ?? []).map(
    ([a, b]) =>
      `<rect x="${x(a).toFixed(1)}" y="${PAD}" width="${(x(Math.min(b, maxX)) - x(a)).toFixed(1)}" height="${H - 2 * PAD}" fill="#eee"/>`,
  );
  const lines = c.lines.map(
    (l, i) =>
      `<polyline fill="none" stroke="${l.color}" stroke-width="2" points="${l.points.map((p) => `${x(p[0]).toFixed(1)},${y(p[1]).toFixed(1)}`).join(' ')}"/>` +
      `<text x="${W - PAD - 160}" y="${PAD + 18 * i}" fill="${l.color}" font-size="13">${l.name}</text>`,
  );
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" font-family="sans-serif">
<rect width="100%" height="100%" fill="white"/><text x="${PAD}" y="24" font-size="15">${c.title}</text>
${bands.join('\n')}
<line x1="${PAD}" y1="${H - PAD}" x2="${W - PAD}" y2="${H - PAD}" stroke="black"/><line x1="${PAD}" y1="${PAD}" x2="${PAD}" y2="${H - PAD}" stroke="black"/>
<text x="${W / 2}" y="${H - 12}" font-size="12">${c.xLabel} (0 to ${round(maxX)})</text><text x="8" y="${PAD - 8}" font-size="12">${c.yLabel} (max ${round(maxY)})</text>
${lines.join('\n')}
</svg>
`;
}

const round = (v: number): string => (Number.isInteger(v) ? String(v) : v.toFixed(1));
