import type { WatchedKind } from '@kcm-bus/schemas/kinds.ts';
import type { PumpOptions } from './pump.ts';

/** GAP_MS is the least time between two publications of a kind (PumpOptions.gapMs), and between two transactions. */
export const GAP_MS = 3;

/** PublicationPace is a kind's share of PumpOptions: how long what its watch brings may wait to go out with more. */
export type PublicationPace = Required<Pick<PumpOptions, 'gapMs' | 'maxGapMs'>>;

/**
 * publicationPace is a kind's pace. Every kind waits GAP_MS after a publication, up to 10 ms after a large one: S1 at
 * 1000/1000 with a fixed 10 ms gap (one run) had 27 % fewer publications than with 3 ms, and a lone change still waits
 * 3 ms at most. A lingering kind (--publish-linger-kinds) waits lingerMs after each: its readers take it at a
 * periodic pass (node lifecycle reads Leases every --node-monitor-period), so 500 nodes' 50 renewals a second go
 * out in a few requests a second, not one each; a change after a quiet spell still goes at once.
 */
export function publicationPace(
  kind: WatchedKind,
  lingering: ReadonlySet<WatchedKind>,
  lingerMs: number,
): PublicationPace {
  return lingering.has(kind) ? { gapMs: lingerMs, maxGapMs: lingerMs } : { gapMs: GAP_MS, maxGapMs: 10 };
}
