import { diffObjects, formatDiffLine, summarize, type DiffLine, type Json } from './object-diff.ts';

/** Version is one record of an object in its history topic (`kcm.watch.<plural>`), where it is and what it says. */
export type Version = {
  readonly topic: string;
  readonly partition: number;
  readonly offset: string;
  /** timestamp is the record's Kafka timestamp (ms since the epoch). */
  readonly timestamp: number;
  /** observedAt is the watcher's clock when it saw the event (RFC 3339). */
  readonly observedAt: string;
  readonly resourceVersion: string;
  readonly type: 'Applied' | 'Deleted';
  readonly object: Json;
};

/** HistoryEntry is a version as `history --json` prints it: the first one summarized, each later one as its diff. */
export type HistoryEntry = {
  readonly topic: string;
  readonly partition: number;
  readonly offset: string;
  readonly timestamp: string;
  readonly observedAt: string;
  readonly resourceVersion: string;
  readonly type: 'Applied' | 'Deleted';
  readonly summary?: string;
  readonly diff: readonly DiffLine[];
};

/** historyEntries turns an object's versions, in order, into entries: each diffed against the one before it. */
export function historyEntries(versions: readonly Version[]): HistoryEntry[] {
  return versions.map((v, i) => {
    const previous = versions[i - 1];
    const at = {
      topic: v.topic,
      partition: v.partition,
      offset: v.offset,
      timestamp: new Date(v.timestamp).toISOString(),
    };
    const entry = { ...at, observedAt: v.observedAt, resourceVersion: v.resourceVersion, type: v.type };
    return previous === undefined
      ? { ...entry, summary: summarize(v.object), diff: [] }
      : { ...entry, diff: diffObjects(previous.object, v.object) };
  });
}

/**
 * formatHistory is the text `history` prints: a heading, then per version a line with its times, resourceVersion,
 * type and place, and under it the summary (first version) or the diff lines; a version that changed nothing the diff
 * shows (a resync, a relist) says so.
 */
export function formatHistory(heading: string, entries: readonly HistoryEntry[]): string[] {
  if (entries.length === 0) return [`${heading}: no version in the audit window`];
  const lines = [`${heading}: ${entries.length} version${entries.length === 1 ? '' : 's'}`];
  for (const e of entries) {
    lines.push(
      `${e.timestamp} (observed ${e.observedAt})  rv ${e.resourceVersion}  ${e.type.padEnd(7)}  ${e.topic} ${e.partition}@${e.offset}`,
    );
    if (e.summary !== undefined)
      lines.push(`    ${e.type === 'Deleted' ? 'deleted, last seen as' : 'first seen:'} ${e.summary}`);
    else if (e.diff.length === 0) lines.push(e.type === 'Deleted' ? '    deleted' : '    (no change to the object)');
    else
      lines.push(
        ...(e.type === 'Deleted' ? ['    deleted, after:'] : []),
        ...e.diff.map((d) => `    ${formatDiffLine(d)}`),
      );
  }
  return lines;
}
