import { percentile } from '../../lib/stats.ts';

/** RssSample is one reading of a service's resident set: seconds since the soak began, the process, megabytes. */
export type RssSample = { readonly t: number; readonly pid: number; readonly mb: number };

/** Timed is a value read at `t` seconds since the soak began. */
export type Timed = { readonly t: number; readonly v: number };

/** Window is a span of the soak, in seconds since it began: a fault from its injection until it has run its course. */
export type Window = readonly [number, number];

/**
 * slopePerTenMinutes is how fast a service's memory grows, in MB per 10 minutes: the least-squares slope of its
 * readings with one intercept per process (a killed service's replacement starts over), leaving out each process's
 * first warmUpS seconds. Undefined when fewer than two readings of one process remain.
 */
export function slopePerTenMinutes(samples: readonly RssSample[], warmUpS: number): number | undefined {
  const byPid = new Map<number, RssSample[]>();
  for (const s of samples) byPid.set(s.pid, [...(byPid.get(s.pid) ?? []), s]);
  let covariance = 0,
    variance = 0;
  for (const life of byPid.values()) {
    const warm = life.filter((s) => s.t - life[0]!.t >= warmUpS);
    if (warm.length < 2) continue;
    const meanT = mean(warm.map((s) => s.t)),
      meanMb = mean(warm.map((s) => s.mb));
    for (const s of warm) {
      covariance += (s.t - meanT) * (s.mb - meanMb);
      variance += (s.t - meanT) ** 2;
    }
  }
  return variance === 0 ? undefined : (covariance / variance) * 600;
}

/** outside are the readings taken outside every window. */
export function outside(samples: readonly Timed[], windows: readonly Window[]): Timed[] {
  return samples.filter((s) => !windows.some(([a, b]) => s.t >= a && s.t <= b));
}

/** p99Outside is the 99th percentile of the readings taken outside every window (undefined: none). */
export function p99Outside(samples: readonly Timed[], windows: readonly Window[]): number | undefined {
  return percentile(
    outside(samples, windows).map((s) => s.v),
    99,
  );
}

/** Target is a controller's desired replicas from `t` on. */
export type Target = { readonly t: number; readonly replicas: number };

/**
 * overCreated is the most live pods a controller had beyond what it was allowed, 0 when never: at a scale-up the
 * ceiling is the new target; at a scale-down it follows the live pods down (pods are deleted one by one) until it
 * reaches the target, so a pod created while the old pods drain counts. counts are the live pods (not terminating)
 * after each change, both series in time order.
 */
export function overCreated(targets: readonly Target[], counts: readonly { t: number; n: number }[]): number {
  const events = [
    ...targets.map((x) => ({ t: x.t, target: x.replicas })),
    ...counts.map((c) => ({ t: c.t, live: c.n })),
  ].sort((a, b) => a.t - b.t || ('target' in a ? -1 : 1));
  let target = 0,
    ceiling = 0,
    over = 0;
  for (const e of events) {
    if ('target' in e) {
      target = e.target;
      ceiling = Math.max(ceiling, target);
    } else {
      over = Math.max(over, e.live - ceiling);
      ceiling = Math.max(target, Math.min(ceiling, e.live));
    }
  }
  return over;
}

const mean = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;
