import type { GroupOffsets } from '@kcm-bus/runtime/bus/index.ts';

/** PartitionLag is one partition of a group: where it is, where the partition ends, and its input's age. */
export type PartitionLag = {
  readonly topic: string;
  readonly partition: number;
  /** committed is the group's committed offset, null while it has committed none on this partition. */
  readonly committed: string | null;
  readonly end: string;
  /**
   * lag is end − committed: records and transaction markers the group has not processed yet (null: no commit, or a
   * state topic, which members read only to restore and then leave to its history topic).
   */
  readonly lag: number | null;
  /** watermarkAgeMs is now − the newest watermark's observedAt (watch and state topics; null: none found or not one). */
  readonly watermarkAgeMs: number | null;
};

/** GroupLag is one consumer group of a kcm-bus service with the lag of every partition it is assigned or committed on. */
export type GroupLag = {
  readonly service: string;
  readonly group: string;
  readonly state: string;
  readonly members: number;
  readonly totalLag: number;
  readonly partitions: readonly PartitionLag[];
};

/** LagInputs are what `lag` read from the cluster: groups, partition ends and newest watermark times, by `topic/partition`. */
export type LagInputs = {
  readonly groups: readonly GroupOffsets[];
  readonly ends: ReadonlyMap<string, string>;
  readonly watermarks: ReadonlyMap<string, number>;
};

/** partitionId names a partition in LagInputs' maps. */
export function partitionId(topic: string, partition: number): string {
  return `${topic}/${partition}`;
}

/** hasWatermarks: the watcher writes a watermark to every partition of its history and state topics each second. */
export function hasWatermarks(topic: string): boolean {
  return topic.startsWith('kcm.watch.') || topic.startsWith('kcm.state.');
}

/**
 * serviceOfGroup is the kcm-bus service a consumer group belongs to: `kcm-bus-<service>`, with `.<workqueue>` for a
 * singleton controller's group and `.global.<uuid>` for a member's own reader of its global inputs. Throwaway
 * readers (`kcm-bus-read-*`, `kcm-bus-tail-*`) and other groups are none (undefined).
 */
export function serviceOfGroup(groupId: string): string | undefined {
  const match = /^kcm-bus-([a-z0-9-]+)/.exec(groupId);
  if (!match || /^kcm-bus-(read|tail)-/.test(groupId)) return undefined;
  return match[1];
}

/** lagReport computes every group's lag at `now`; groups are kcm-bus services' unless `only` (a group id prefix) picks. */
export function lagReport(inputs: LagInputs, now: number, only?: string): GroupLag[] {
  const picked = inputs.groups.flatMap((g) => {
    const service =
      only === undefined
        ? serviceOfGroup(g.groupId)
        : g.groupId.startsWith(only)
          ? (serviceOfGroup(g.groupId) ?? g.groupId)
          : undefined;
    return service === undefined ? [] : [{ g, service }];
  });
  return picked
    .map(({ g, service }) => {
      const partitions = g.partitions
        .map((c) => partitionLag(inputs, c, now))
        .sort((a, b) => a.topic.localeCompare(b.topic) || a.partition - b.partition);
      return {
        service,
        group: g.groupId,
        state: g.state,
        members: g.members,
        totalLag: partitions.reduce((n, p) => n + (p.lag ?? 0), 0),
        partitions,
      };
    })
    .sort((a, b) => a.service.localeCompare(b.service) || a.group.localeCompare(b.group));
}

function partitionLag(inputs: LagInputs, c: GroupOffsets['partitions'][number], now: number): PartitionLag {
  const id = partitionId(c.topic, c.partition);
  const end = inputs.ends.get(id) ?? c.committed ?? '0';
  const lag =
    c.committed === undefined || c.topic.startsWith('kcm.state.')
      ? null
      : BigInt(end) > BigInt(c.committed)
        ? Number(BigInt(end) - BigInt(c.committed))
        : 0;
  const newest = inputs.watermarks.get(id);
  const watermarkAgeMs = hasWatermarks(c.topic) && newest !== undefined ? Math.max(0, now - newest) : null;
  return { topic: c.topic, partition: c.partition, committed: c.committed ?? null, end, lag, watermarkAgeMs };
}

const COLUMNS = ['TOPIC', 'PARTITION', 'COMMITTED', 'END', 'LAG', 'WATERMARK AGE'] as const;

/** formatLagTable prints the report for people: a line per group, then its partitions in aligned columns. */
export function formatLagTable(report: readonly GroupLag[]): string {
  if (report.length === 0) return 'no kcm-bus consumer groups';
  const rows = report.flatMap((g) => g.partitions.map(cellsOf));
  const widths = COLUMNS.map((c, i) => Math.max(c.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: readonly string[]): string =>
    `  ${cells.map((c, i) => c.padEnd(widths[i]!)).join('  ')}`.trimEnd();
  return report
    .map((g) =>
      [
        `${g.service}  ${g.group}  ${g.state}, ${g.members} member${g.members === 1 ? '' : 's'}, lag ${g.totalLag}`,
        ...(g.partitions.length === 0
          ? ['  no partitions assigned or committed']
          : [line(COLUMNS), ...g.partitions.map((p) => line(cellsOf(p)))]),
      ].join('\n'),
    )
    .join('\n\n');
}

function cellsOf(p: PartitionLag): string[] {
  return [
    p.topic,
    String(p.partition),
    p.committed ?? '-',
    p.end,
    p.lag === null ? '-' : String(p.lag),
    formatAge(p.watermarkAgeMs),
  ];
}

/** formatAge prints an age in seconds with a tenth ('-' when there is none). */
export function formatAge(ms: number | null): string {
  return ms === null ? '-' : `${(ms / 1000).toFixed(1)}s`;
}
