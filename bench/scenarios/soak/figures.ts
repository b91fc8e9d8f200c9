import { percentile } from '../../lib/stats.ts';

/** RssSample is one reading of a service's resident set: seconds since the soak began, the process, megabytes. */
export type RssSample = { readonly t: number; readonly pid: number; readonly mb: number };

/**
 * MemoryParts are what one reading of a service's RSS is made of, in MB: V8's heap as committed
 * (nodejs_heap_size_total_bytes), the memory of Buffers and other objects outside it (nodejs_external_memory_bytes),
 * and the file-backed pages (RssFile: node's own code); the rest of the RSS is malloc's and V8's pages beyond what it
 * counts as committed. Of the anonymous RSS (anonMb, RssAnon), malloc's arenas (mallocMb, mallocArenaBytes); the rest
 * of it is V8's pages (committed or pooled), blocks malloc mapped on their own and thread stacks.
 */
export type MemoryParts = {
  readonly t: number;
  readonly pid: number;
  readonly rssMb: number;
  readonly heapMb: number;
  readonly buffersMb: number;
  readonly fileMb: number;
  readonly anonMb: number;
  readonly mallocMb: number;
};

/** MemoryStep is how much each part of a process's RSS moved between two readings (across a fault, over a life), in MB. */
export type MemoryStep = {
  readonly rss: number;
  readonly heap: number;
  readonly buffers: number;
  readonly file: number;
  readonly anon: number;
  readonly malloc: number;
};

/** stepBetween is how each part moved from one reading to a later one. */
const stepBetween = (before: MemoryParts, after: MemoryParts): MemoryStep => ({
  rss: after.rssMb - before.rssMb,
  heap: after.heapMb - before.heapMb,
  buffers: after.buffersMb - before.buffersMb,
  file: after.fileMb - before.fileMb,
  anon: after.anonMb - before.anonMb,
  malloc: after.mallocMb - before.mallocMb,
});

/**
 * stepAcross is how a service's RSS moved across a fault's window: from its last reading before the window to the
 * first after it, of the same process (undefined: the process was replaced, or no reading on either side).
 */
export function stepAcross(parts: readonly MemoryParts[], window: Window): MemoryStep | undefined {
  const before = parts.filter((p) => p.t < window[0]).at(-1);
  const after = parts.find((p) => p.t > window[1]);
  if (before === undefined || after === undefined || before.pid !== after.pid) return undefined;
  return stepBetween(before, after);
}

/** Climb is how one process's RSS moved, by part, from the end of its warm-up (fromT, s) to its last reading (toT). */
export type Climb = { readonly pid: number; readonly fromT: number; readonly toT: number; readonly step: MemoryStep };

/**
 * climbsAfter are, for each process of a slot that lived past warmUpS, how its memory moved from its first reading
 * after its warm-up to its last: where a slope's megabytes went (a replacement's growth while it warms up, a leak).
 */
export function climbsAfter(parts: readonly MemoryParts[], warmUpS: number): Climb[] {
  const byPid = new Map<number, MemoryParts[]>();
  for (const p of parts) byPid.set(p.pid, [...(byPid.get(p.pid) ?? []), p]);
  return [...byPid].flatMap(([pid, readings]) => {
    const warm = readings.filter((p) => p.t - readings[0]!.t >= warmUpS);
    const [from, to] = [warm[0], warm.at(-1)];
    return from === undefined || to === undefined || from === to
      ? []
      : [{ pid, fromT: from.t, toT: to.t, step: stepBetween(from, to) }];
  });
}

/** Timed is a value read at `t` seconds since the soak began. */
export type Timed = { readonly t: number; readonly v: number };

/** Window is a span of the soak, in seconds since it began: a fault from its injection until it has run its course. */
export type Window = readonly [number, number];

/**
 * slopePerTenMinutes is how fast a service's memory grows, in MB per 10 minutes: the least-squares slope of its
 * readings with one intercept per process (a killed service's replacement starts over), leaving out each process's
 * first warmUpS seconds. Given fault windows, the readings inside them are left out too and each stretch between
 * two faults gets its own intercept: the growth while the churn goes on, without the steps a fault makes. Undefined
 * when no process has two readings left in one stretch.
 */
export function slopePerTenMinutes(
  samples: readonly RssSample[],
  warmUpS: number,
  windows: readonly Window[] = [],
): number | undefined {
  const stretches = new Map<string, RssSample[]>();
  const born = new Map<number, number>();
  for (const s of samples) {
    if (!born.has(s.pid)) born.set(s.pid, s.t);
    if (s.t - born.get(s.pid)! < warmUpS || windows.some(([a, b]) => s.t >= a && s.t <= b)) continue;
    const key = `${s.pid}/${windows.filter(([, b]) => b < s.t).length}`;
    stretches.set(key, [...(stretches.get(key) ?? []), s]);
  }
  let covariance = 0,
    variance = 0;
  for (const stretch of stretches.values()) {
    const meanT = mean(stretch.map((s) => s.t)),
      meanMb = mean(stretch.map((s) => s.mb));
    for (const s of stretch) {
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
