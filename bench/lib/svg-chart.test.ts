import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { lineChart } from './svg-chart.ts';

describe('lineChart', () => {
  it('given two lines and a band, then each line is a polyline scaled to the largest x and y, and the band is shaded', () => {
    const svg = lineChart({
      title: 'RSS',
      xLabel: 'minutes',
      yLabel: 'MB',
      lines: [
        {
          name: 'watcher',
          color: 'red',
          points: [
            [0, 0],
            [10, 50],
          ],
        },
        { name: 'writer', color: 'blue', points: [[5, 100]] },
      ],
      bands: [[2, 4]],
    });
    assert.match(svg, /^<svg /);
    assert.match(svg, /<polyline fill="none" stroke="red" stroke-width="2" points="50\.0,350\.0 670\.0,200\.0"\/>/);
    assert.match(svg, /points="360\.0,50\.0"/);
    assert.match(svg, /<rect x="174\.0" y="50" width="124\.0" height="300" fill="#eee"\/>/);
    assert.match(svg, /minutes \(0 to 10\)/);
    assert.match(svg, /MB \(max 100\)/);
  });
});
