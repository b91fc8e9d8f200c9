import { kafkaBus } from '@kcm-bus/runtime/bus/bus.kafka.ts';
import type { Bus } from '@kcm-bus/runtime/bus/index.ts';
import { httpCall } from '@kcm-bus/stack/probes.ts';
import { lagReport, partitionId } from '@kcm-bus/tools/lag-table.ts';
import { metricSamples, sumsBy } from '@kcm-bus/harness/metrics-text.ts';
import { mallocArenaBytes, statusSizes } from '../../lib/probes.ts';
import { parseRequestCounts } from '../../lib/kafka-requests.ts';
import { total } from '../../lib/stats.ts';
import type { BenchContext } from '../../lib/scenario.ts';
import type { ChaosSystem } from '../chaos/system.ts';
import type { ServiceProcess } from '@kcm-bus/harness/processes.ts';
import type { MemoryParts, RssSample, Timed } from './figures.ts';

/** Readings are everything the sampler read, by service slot (RSS, input watermark age) or service (records lag). */
export type Readings = {
  readonly rss: Map<string, RssSample[]>;
  /** heapUsed is each service's V8 heap in use (nodejs_heap_size_used_bytes): the live objects and their garbage. */
  readonly heapUsed: Map<string, RssSample[]>;
  /** parts are what each service's RSS is made of, by reading (MemoryParts): where a fault's step of it went. */
  readonly parts: Map<string, MemoryParts[]>;
  readonly watermarkAgeS: Map<string, Timed[]>;
  /** lagS is each reconciler's lag behind the watcher, in seconds (lagBehindWatcher). */
  readonly lagS: Map<string, Timed[]>;
  readonly recordsLag: Map<string, Timed[]>;
  /** kafkaRequests are the Kafka requests every service sent, over the lives of all their processes. */
  kafkaRequests: number;
  /** groupJoins are each process's consumer group joins by group at its last reading (kcm_bus_kafka_group_joins_total). */
  readonly groupJoins: Map<string, Map<number, Readonly<Record<string, number>>>>;
  /** cpuS are each process's CPU seconds, user and system, at its last reading (process_cpu_seconds_total). */
  readonly cpuS: Map<string, Map<number, number>>;
};

/**
 * lagBehindWatcher is how far a reconciler is behind the watcher, in seconds, from their pages read at `nowMs`: for each
 * input topic (kcm.<history|state>.<resource>), the time of the watcher's newest watermark of the resource less the
 * time up to which the input is complete in the reconciler (now − its input watermark age); the largest, 0 when caught
 * up; undefined when the pages hold no pair.
 */
export function lagBehindWatcher(reconciler: string, watcher: string, nowMs: number): number | undefined {
  const newest = new Map(
    metricSamples(watcher, 'kcm_bus_watcher_last_watermark_timestamp_seconds').map((s) => [
      s.labels['resource'],
      s.value,
    ]),
  );
  const lags = metricSamples(reconciler, 'kcm_bus_input_watermark_age_seconds').flatMap((s) => {
    const watcherAt = newest.get(s.labels['topic']?.split('.').at(-1));
    return watcherAt === undefined ? [] : [Math.max(0, watcherAt - (nowMs / 1000 - s.value))];
  });
  return lags.length === 0 ? undefined : Math.max(...lags);
}

/** noReadings are the readings before the first. */
export const noReadings = (): Readings => ({
  rss: new Map(),
  heapUsed: new Map(),
  parts: new Map(),
  watermarkAgeS: new Map(),
  lagS: new Map(),
  recordsLag: new Map(),
  kafkaRequests: 0,
  groupJoins: new Map(),
  cpuS: new Map(),
});

const MB = 2 ** 20;

const push = <T>(m: Map<string, T[]>, key: string, value: T): void => void m.set(key, [...(m.get(key) ?? []), value]);

/** setLast records a process's latest reading of a counter under its slot (a slot's processes: a killed one and its replacement). */
const setLast = <T>(m: Map<string, Map<number, T>>, slot: string, pid: number, value: T): void =>
  void m.set(slot, (m.get(slot) ?? new Map<number, T>()).set(pid, value));

/**
 * Sampler reads, every time it is asked (sample): each running service's RSS and V8 heap in use; each reconciler's oldest input
 * watermark age (kcm_bus_input_watermark_age_seconds, its largest series) and its lag behind the watcher
 * (lagBehindWatcher); each service's consumer groups' lag in records (committed against the partitions' ends, as
 * `kcm-bus lag`); the Kafka requests each process sent since the last reading (kcm_bus_kafka_requests_total,
 * from 0 in a new process); and each process's consumer group joins (kcm_bus_kafka_group_joins_total) and CPU
 * seconds (process_cpu_seconds_total).
 */
export class Sampler {
  readonly readings: Readings = noReadings();
  readonly #system: ChaosSystem;
  readonly #bus: Bus;
  readonly #started: number;
  readonly #requestsOf = new Map<number, number>();

  constructor(ctx: BenchContext, system: ChaosSystem, started: number) {
    this.#system = system;
    this.#bus = kafkaBus({ brokers: ctx.e.kafkaBrokers, clientId: 'kcm-bus-bench-soak' });
    this.#started = started;
  }

  /** sample takes one reading of everything; a service that does not answer (stopped, restarting) is left out. */
  async sample(): Promise<void> {
    const [t, nowMs] = [(performance.now() - this.#started) / 1000, Date.now()];
    const read = async ([slot, s]: [string, ServiceProcess]) =>
      [slot, await this.#read(t, slot, s.process.pid ?? 0, s.metricsUrl)] as const;
    const pages = await Promise.all([...this.#system.running()].map(read));
    const watcher = pages.find(([slot]) => slot === 'watcher')?.[1];
    for (const [slot, page] of pages) {
      if (page === undefined || !slot.startsWith('reconciler-')) continue;
      const ages = metricSamples(page, 'kcm_bus_input_watermark_age_seconds').map((x) => x.value);
      if (ages.length > 0) push(this.readings.watermarkAgeS, slot, { t, v: Math.max(...ages) });
      const lag = watcher === undefined ? undefined : lagBehindWatcher(page, watcher, nowMs);
      if (lag !== undefined) push(this.readings.lagS, slot, { t, v: lag });
    }
    await this.#lag(t).catch(() => undefined);
  }

  /** #read records a service's memory, Kafka requests, joins and CPU and gives its /metrics page (undefined: it did not answer). */
  async #read(t: number, slot: string, pid: number, metricsUrl: string): Promise<string | undefined> {
    try {
      const status = statusSizes(pid);
      push(this.readings.rss, slot, { t, pid, mb: status('VmRSS') / MB });
      const page = (await httpCall(metricsUrl, { timeoutMs: 2000 })).body;
      this.#memory(t, slot, pid, status, page);
      this.#counters(slot, pid, page);
      return page;
    } catch {
      return undefined; // stopped (SIGSTOP), or between a kill and its replacement: no reading this time
    }
  }

  /** #memory records a process's V8 heap in use and what its RSS is made of (MemoryParts). */
  #memory(t: number, slot: string, pid: number, status: (field: string) => number, page: string): void {
    for (const heap of metricSamples(page, 'nodejs_heap_size_used_bytes'))
      push(this.readings.heapUsed, slot, { t, pid, mb: heap.value / MB });
    const mbOf = (name: string): number => (metricSamples(page, name)[0]?.value ?? NaN) / MB;
    const [rssMb, fileMb, anonMb] = [status('VmRSS') / MB, status('RssFile') / MB, status('RssAnon') / MB];
    const [heapMb, buffersMb] = [mbOf('nodejs_heap_size_total_bytes'), mbOf('nodejs_external_memory_bytes')];
    const mallocMb = mallocArenaBytes(pid) / MB;
    push(this.readings.parts, slot, { t, pid, rssMb, heapMb, buffersMb, fileMb, anonMb, mallocMb });
  }

  /** #counters records a process's Kafka requests since its last reading, its group joins and its CPU seconds. */
  #counters(slot: string, pid: number, page: string): void {
    const sent = total(parseRequestCounts(page));
    this.readings.kafkaRequests += sent - (this.#requestsOf.get(pid) ?? 0);
    this.#requestsOf.set(pid, sent);
    setLast(
      this.readings.groupJoins,
      slot,
      pid,
      sumsBy(page, 'kcm_bus_kafka_group_joins_total', (l) => l['group']),
    );
    const cpu = metricSamples(page, 'process_cpu_seconds_total')[0];
    if (cpu !== undefined) setLast(this.readings.cpuS, slot, pid, cpu.value);
  }

  async #lag(t: number): Promise<void> {
    const groups = await this.#bus.groupOffsets();
    const ends = new Map<string, string>();
    for (const topic of new Set(groups.flatMap((g) => g.partitions.map((p) => p.topic))))
      for (const p of await this.#bus.offsets(topic)) ends.set(partitionId(topic, p.partition), p.high);
    const byService = new Map<string, number>();
    for (const g of lagReport({ groups, ends, watermarks: new Map() }, Date.now()))
      byService.set(g.service, (byService.get(g.service) ?? 0) + g.totalLag);
    for (const [service, lag] of byService) push(this.readings.recordsLag, service, { t, v: lag });
  }
}
