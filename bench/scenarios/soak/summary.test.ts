import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { total } from '../../lib/stats.ts';
import { noReadings } from './sampler.ts';
import { climbsText, joinsOf, joinsText, stepsText, summarize } from './summary.ts';

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

/** brokerKillRun: reconciler-node lived through a broker's kill (at 100-160 s), the writer was replaced in it. */
function brokerKillRun() {
  const parts = (pid: number, t: number, rssMb: number, heapMb: number) => ({
    t,
    pid,
    rssMb,
    heapMb,
    buffersMb: 10,
    fileMb: 60,
    anonMb: rssMb - 60,
    mallocMb: 20,
  });
  const readings = noReadings();
  readings.parts.set('reconciler-node', [parts(7, 90, 130, 40), parts(7, 200, 150, 52), parts(7, 300, 151, 52)]);
  readings.parts.set('writer', [parts(8, 90, 140, 50), parts(9, 200, 170, 60)]);
  const fault = { name: 'kill -9 the Kafka broker, restart', window: [100, 160] as const };
  return { readings, faults: [fault], steps: 0, failedSteps: 0, restarts: 0, overCreated: {}, settledS: 0, lost: {} };
}

describe('summarize: memory steps across faults', () => {
  it('given a process that lived through a fault and one replaced in it, then the first one step by part, the other none', () => {
    const { faultSteps } = summarize(brokerKillRun(), 0);
    assert.deepEqual(faultSteps[0]?.steps, [
      { slot: 'reconciler-node', step: { rss: 20, heap: 12, buffers: 0, file: 0, anon: 20, malloc: 0 } },
    ]);
    assert.deepEqual(stepsText(faultSteps).slice(1), [
      '  kill -9 the Kafka broker, restart (1.7-2.7 min): reconciler-node +20.0 (+12.0, +0.0, +0.0, +8.0; +0.0, +20.0)',
    ]);
  });

  it('given a warm-up, then each process that lived past it climbs from its first reading after it to its last', () => {
    const { climbs } = summarize(brokerKillRun(), 100);
    assert.deepEqual(climbs, [
      {
        slot: 'reconciler-node',
        climbs: [{ pid: 7, fromT: 200, toT: 300, step: { rss: 1, heap: 0, buffers: 0, file: 0, anon: 1, malloc: 0 } }],
      },
      { slot: 'writer', climbs: [] },
    ]);
    assert.deepEqual(climbsText(climbs).slice(1), [
      '  reconciler-node (pid 7, 3.3-5.0 min): +1.0 (+0.0, +0.0, +0.0, +1.0; +0.0, +1.0)',
    ]);
  });
});
