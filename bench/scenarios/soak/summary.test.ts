import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { total } from '../../lib/stats.ts';
import { noReadings } from './sampler.ts';
import { joinsOf, joinsText, summarize } from './summary.ts';

describe('joinsOf', () => {
  it("given a slot's processes (a killed one and its replacement), then their joins added up by group", () => {
    const byPid = new Map([
      [101, { 'kcm-bus-reconciler-node': 2, 'kcm-bus-reconciler-node.global': 5 }],
      [202, { 'kcm-bus-reconciler-node': 1, 'kcm-bus-reconciler-node.global': 1 }],
    ]);
    const joins = joinsOf(byPid);
    assert.deepEqual(joins, { 'kcm-bus-reconciler-node': 3, 'kcm-bus-reconciler-node.global': 6 });
    assert.equal(total(joins), 9);
    assert.equal(joinsText(joins), 'kcm-bus-reconciler-node 3, kcm-bus-reconciler-node.global 6');
  });

  it('given no reading, then none', () => {
    assert.deepEqual(joinsOf(undefined), {});
    assert.equal(joinsText({}), 'none');
  });
});

describe('summarize: CPU', () => {
  it("given a slot's killed process and its replacement over 10 minutes, then their CPU seconds added up, a minute", () => {
    const rss = [0, 300, 600].map((t) => ({ t, pid: t < 300 ? 101 : 202, mb: 100 }));
    const readings = noReadings();
    readings.rss.set('writer', rss);
    readings.cpuS.set(
      'writer',
      new Map([
        [101, 12],
        [202, 18],
      ]),
    );
    const run = { readings, faults: [], steps: 0, failedSteps: 0, restarts: 0, overCreated: {}, settledS: 0, lost: {} };
    assert.equal(summarize(run, 0).services[0]?.cpuPerMinute, 3);
  });
});
