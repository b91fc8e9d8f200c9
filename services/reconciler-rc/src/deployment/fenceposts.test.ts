import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Deployment, IntOrString } from '@kcm-bus/k8s/apps-v1.ts';
import { newDeployment } from './deployment.fixture.ts';
import {
  getScaledValueFromIntOrPercent,
  maxSurge,
  maxUnavailable,
  minAvailable,
  resolveFenceposts,
} from './fenceposts.ts';

describe('TestResolveFenceposts', () => {
  const cases: { surge?: string; unavailable?: string; desired: number; want: [number, number] | 'error' }[] = [
    { surge: '0%', unavailable: '0%', desired: 0, want: [0, 1] },
    { surge: '39%', unavailable: '39%', desired: 10, want: [4, 3] },
    { surge: 'oops', unavailable: '39%', desired: 10, want: 'error' },
    { surge: '55%', unavailable: 'urg', desired: 10, want: 'error' },
    { unavailable: '39%', desired: 10, want: [0, 3] },
    { surge: '39%', desired: 10, want: [4, 0] },
    { desired: 10, want: [0, 1] },
  ];
  for (const [i, tc] of cases.entries()) {
    it(`#${i}: given maxSurge ${tc.surge ?? 'nil'}, maxUnavailable ${tc.unavailable ?? 'nil'} of ${tc.desired}, then ${JSON.stringify(tc.want)}`, () => {
      const got = resolveFenceposts(tc.surge, tc.unavailable, tc.desired);
      if (tc.want === 'error') assert.ok('error' in got);
      else assert.deepEqual(got, { surge: tc.want[0], unavailable: tc.want[1] });
    });
  }
});

describe('getScaledValueFromIntOrPercent (intstr)', () => {
  it('given a number, a percentage rounded up or down, or a bad string, then the value or the error', () => {
    assert.deepEqual(getScaledValueFromIntOrPercent(3, 10, true), { value: 3 });
    assert.deepEqual(getScaledValueFromIntOrPercent('25%', 10, true), { value: 3 });
    assert.deepEqual(getScaledValueFromIntOrPercent('25%', 10, false), { value: 2 });
    assert.deepEqual(getScaledValueFromIntOrPercent('3', 10, true), {
      error: 'invalid value for IntOrString: invalid type: string is not a percentage',
    });
    assert.deepEqual(getScaledValueFromIntOrPercent(undefined, 10, true), { error: 'nil value for IntOrString' });
  });
});

const rolling = (replicas: number, unavailable: IntOrString, surge: IntOrString = 1): Deployment =>
  newDeployment('foo', replicas, { maxUnavailable: unavailable, maxSurge: surge });
const recreate = (replicas: number): Deployment => newDeployment('foo', replicas, { recreate: true });

describe('TestMaxUnavailable', () => {
  const cases: [string, Deployment, number][] = [
    ['maxUnavailable less than replicas', rolling(10, 5), 5],
    ['maxUnavailable equal replicas', rolling(10, 10), 10],
    ['maxUnavailable greater than replicas', rolling(5, 10), 5],
    ['maxUnavailable with replicas is 0', rolling(0, 10), 0],
    ['maxUnavailable with Recreate deployment strategy', recreate(1), 0],
    ['maxUnavailable less than replicas with percents', rolling(10, '50%'), 5],
    ['maxUnavailable equal replicas with percents', rolling(10, '100%'), 10],
    ['maxUnavailable greater than replicas with percents', rolling(5, '100%'), 5],
  ];
  for (const [name, d, want] of cases) it(`given ${name}, then ${want}`, () => assert.equal(maxUnavailable(d), want));
});

describe('TestMinAvailable', () => {
  const cases: [string, Deployment, number][] = [
    ['replicas greater than maxUnavailable', rolling(10, 5), 5],
    ['replicas equal maxUnavailable', rolling(10, 10), 0],
    ['replicas less than maxUnavailable', rolling(5, 10), 0],
    ['replicas is 0', rolling(0, 10), 0],
    ['minAvailable with Recreate deployment strategy', recreate(10), 0],
    ['replicas greater than maxUnavailable with percents', rolling(10, '60%'), 4],
    ['replicas equal maxUnavailable with percents', rolling(10, '100%'), 0],
    ['replicas less than maxUnavailable with percents', rolling(5, '100%'), 0],
  ];
  for (const [name, d, want] of cases) it(`given ${name}, then ${want}`, () => assert.equal(minAvailable(d), want));
});

describe('maxSurge (deploymentutil.MaxSurge)', () => {
  it('given a rolling update, then its resolved surge; given Recreate, then 0; given none set, then the 25% default', () => {
    assert.equal(maxSurge(rolling(10, 0, '39%')), 4);
    assert.equal(maxSurge(recreate(10)), 0);
    const { strategy: _s, ...spec } = rolling(10, 0).spec;
    assert.equal(maxSurge({ ...rolling(10, 0), spec }), 3);
    assert.equal(maxUnavailable({ ...rolling(10, 0), spec }), 2);
  });
});
