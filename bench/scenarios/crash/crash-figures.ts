import type { Sample } from '../../lib/owned-pods.ts';

/** Pause is an interval with no new pod, in seconds after the kill. */
export type Pause = { readonly from: number; readonly to: number; readonly seconds: number };

/** CrashFigures are what S7 reads from one run's series; times are seconds after the kill. */
export type CrashFigures = {
  /** atKill: pods when the killed process had exited. */
  readonly atKill: number;
  /** pause: the longest time without a new pod between the kill and the target (the row "seconds to resume"). */
  readonly pause: Pause;
  /** baseline: the most pods seen within `landingS` of the kill (creates in flight at the kill land then). */
  readonly baseline: number;
  /** firstRise: when more than `baseline` pods first existed; pods still queued in Kafka make this early for kcm-bus. */
  readonly firstRise: number | undefined;
  /** toTarget: when `target` pods first existed. */
  readonly toTarget: number | undefined;
  /** maxLive: the most live pods ever seen; overCreated = maxLive - target (must be 0). */
  readonly maxLive: number;
  readonly overCreated: number;
};

/**
 * crashFigures measures a run killed at `killedAt` (seconds after the RC was created) from the series of its live
 * pods, which has one sample per change (a watch, so no pod goes unseen however short it lived).
 */
export function crashFigures(
  series: readonly Sample[],
  killedAt: number,
  target: number,
  landingS: number,
): CrashFigures {
  const after = series.filter((s) => s.t >= killedAt);
  const atKill = series.findLast((s) => s.t < killedAt)?.n ?? 0;
  const reached = after.find((s) => s.n >= target)?.t;
  const baseline = Math.max(atKill, ...after.filter((s) => s.t <= killedAt + landingS).map((s) => s.n));
  const firstRise = after.find((s) => s.n > baseline)?.t;
  const maxLive = series.reduce((max, s) => Math.max(max, s.n), 0);
  const since = (t: number | undefined): number | undefined => (t === undefined ? undefined : t - killedAt);
  return {
    atKill,
    pause: longestPause(after, atKill, killedAt, reached ?? Infinity),
    baseline,
    firstRise: since(firstRise),
    toTarget: since(reached),
    maxLive,
    overCreated: maxLive - target,
  };
}

/** longestPause is the longest gap between the kill and successive increases of the count, up to `until`. */
function longestPause(after: readonly Sample[], atKill: number, killedAt: number, until: number): Pause {
  let best: Pause = { from: 0, to: 0, seconds: 0 };
  let last = killedAt;
  let n = atKill;
  for (const s of after.filter((x) => x.t <= until)) {
    if (s.n > n) {
      if (s.t - last > best.seconds) best = { from: last - killedAt, to: s.t - killedAt, seconds: s.t - last };
      last = s.t;
    }
    n = s.n;
  }
  return best;
}
