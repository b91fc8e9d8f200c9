import { watchTopic, type WatchedKind } from '@kcm-bus/schemas/kinds.ts';
import type { WatchRecord } from '@kcm-bus/schemas/watch-record.ts';
import { formatHistory, historyEntries, type Version } from './history-format.ts';
import type { Command } from './command.ts';
import { OBJECT_ABOUT, OBJECT_SYNOPSIS, objectArgs, objectFlags, type ObjectArgs } from './object-args.ts';
import type { Json } from './object-diff.ts';
import { openScanner, scanKeys, type Scanner } from './topic-scan.ts';

/**
 * readVersions reads every version of the given objects of a kind in its history topic (`kcm.watch.<plural>`),
 * in order, each key's partition once; tombstones and watermarks carry no version and are left out.
 */
export async function readVersions(
  s: Scanner,
  kind: WatchedKind,
  keys: Iterable<string>,
): Promise<Map<string, Version[]>> {
  const topic = watchTopic(kind);
  const versions = new Map<string, Version[]>();
  await scanKeys(s, topic, keys, async (record, partition) => {
    if (record.value === null) return;
    const value = (await s.decode(record.value)) as WatchRecord<Json>;
    if (value.type === 'Watermark') return;
    const key = record.key.toString();
    versions.set(key, [
      ...(versions.get(key) ?? []),
      {
        topic,
        partition,
        offset: record.offset,
        timestamp: Number(record.timestamp),
        observedAt: value.observedAt,
        resourceVersion: value.resourceVersion,
        type: value.type,
        object: value.object,
      },
    ]);
  });
  return versions;
}

/**
 * history prints every version of one object in the audit window: as text (a timeline of diffs), or with json one
 * JSON object per version (HistoryEntry, the diff as a list).
 */
export async function history(
  args: Pick<ObjectArgs, 'kind' | 'key' | 'json'>,
  s: Scanner,
  print: (line: string) => void,
): Promise<void> {
  const versions = (await readVersions(s, args.kind, [args.key])).get(args.key) ?? [];
  const entries = historyEntries(versions);
  const lines = args.json
    ? entries.map((e) => JSON.stringify(e))
    : formatHistory(`${args.kind.plural} ${args.key}`, entries);
  for (const line of lines) print(line);
}

/** HISTORY_COMMAND is `kcm-bus history KIND NAMESPACE/NAME [--json]`: output on stdout, progress of long scans on stderr. */
export const HISTORY_COMMAND: Command = {
  name: 'history',
  synopsis: OBJECT_SYNOPSIS,
  positionals: [2, 2],
  summary: 'every version of one object in the audit window, as diffs',
  about: OBJECT_ABOUT,
  flags: objectFlags('One JSON object per version (the diff as a list) instead of the timeline of diffs.'),
  run: async (line, env) => {
    const args = objectArgs(line, env);
    await history(args, openScanner(args, 'kcm-bus-history', console.error), console.log);
    return 0;
  },
};
