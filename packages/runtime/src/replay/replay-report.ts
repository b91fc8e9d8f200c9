import { type KeyVerdict, same } from './replay-diff.ts';

/** ReplayReport is one controller's replay over a window: what it read, and each key's verdict. */
export type ReplayReport = {
  readonly controller: string;
  readonly from: string;
  readonly to: string;
  /** records: input records applied (the window's and, before it, those that built its starting state). */
  readonly records: number;
  /** skipped: records that could not be decoded or did not name their object (counted, not replayed). */
  readonly skipped: number;
  readonly verdicts: readonly KeyVerdict[];
};

/** differing counts the keys whose writes differ. */
export function differing(r: ReplayReport): number {
  return r.verdicts.filter((v) => !same(v)).length;
}

/**
 * formatReport prints a replay side by side: a line per key with the writes the deployed controller published and
 * those the replay decided, then what only one side did under each differing key, then a summary.
 */
export function formatReport(r: ReplayReport): string[] {
  const width = Math.max(3, ...r.verdicts.map((v) => v.key.length));
  const lines = [
    `replay of ${r.controller} from ${r.from} to ${r.to}: ${r.records} input records${r.skipped > 0 ? ` (${r.skipped} undecodable, skipped)` : ''}`,
    `${'KEY'.padEnd(width)}  DEPLOYED  REPLAYED  VERDICT`,
  ];
  for (const v of r.verdicts) {
    lines.push(
      `${v.key.padEnd(width)}  ${String(v.deployed).padStart(8)}  ${String(v.replayed).padStart(8)}  ${same(v) ? 'same' : 'DIFFERS'}`,
    );
    for (const s of v.onlyDeployed) lines.push(`    only deployed: ${s}`);
    for (const s of v.onlyReplayed) lines.push(`    only replayed: ${s}`);
  }
  lines.push(`${r.verdicts.length} keys written, ${r.verdicts.length - differing(r)} the same, ${differing(r)} differ`);
  return lines;
}
