import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { knob, knobsSet, RUN } from './knobs.ts';

/** withEnv runs f with exactly these of the run's and the test's variables set, and puts the environment back. */
function withEnv(vars: Record<string, string>, f: () => void): void {
  const names = [...Object.values(RUN).map((k) => k.env), ...Object.keys(vars)];
  const before = new Map(names.map((k) => [k, process.env[k]]));
  for (const k of names) delete process.env[k];
  Object.assign(process.env, vars);
  try {
    f();
  } finally {
    for (const [k, v] of before)
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
  }
}

describe('knobsSet: the knobs a figure was measured under', () => {
  it("given a scenario's knob and the run's set, then both are listed; where the stack runs and unset knobs are not", () => {
    const vars = { BENCH_TEST_PODS: '1000', BENCH_KAFKA_AUTH: '1', KCM_BUS_PORT_BASE: '17800' };
    const own = [knob('BENCH_TEST_PODS', '10000', 'pods'), knob('BENCH_TEST_UNSET', '3', 'repeats')];
    withEnv(vars, () => assert.deepEqual(knobsSet(own), ['BENCH_TEST_PODS=1000', 'BENCH_KAFKA_AUTH=1']));
  });

  it('given nothing set, then none is listed', () => {
    withEnv({}, () => assert.deepEqual(knobsSet([knob('BENCH_TEST_PODS', '10000', 'pods')]), []));
  });
});
