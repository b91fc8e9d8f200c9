import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { ControllerHooks } from './controller-types.ts';

/** MetricsRegistry is the service's metrics registry, where a controller's own series (upstream's names) register. */
export type MetricsRegistry = Registry;

/** ControllerProbes read what a controller member holds: objects in its stores by kind, and its partitions' sync state. */
export type ControllerProbes = {
  readonly cached: () => Readonly<Record<string, number>>;
  readonly partitionsSynced: () => readonly boolean[];
  /** inputWatermarks: per input topic, the watcher's time up to which it is complete here (undefined: no watermark yet). */
  readonly inputWatermarks: () => Readonly<Record<string, Date | undefined>>;
};

/** RECONCILE_TIME_BUCKETS are controller-runtime's buckets for controller_runtime_reconcile_time_seconds. */
const RECONCILE_TIME_BUCKETS = [
  0.005, 0.01, 0.025, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.6, 0.7, 0.8, 0.9, 1, 1.25, 1.5, 1.75, 2,
  2.5, 3, 3.5, 4, 4.5, 5, 6, 7, 8, 9, 10, 15, 20, 25, 30, 40, 50, 60,
];

/**
 * ControllerMetrics registers a service's controller series once and counts every controller it runs:
 * controller_runtime_reconcile_total{controller} (controller-runtime's name: reconciles run, keys deferred while
 * their partition restores or held for their own writes excluded, which workqueue_work_duration_seconds_count
 * includes), controller_runtime_reconcile_errors_total and controller_runtime_reconcile_time_seconds (the pure
 * decision; the writes it asks for are the writer's rest_client_* series), kcm_bus_cached_objects{controller,kind}
 * (the informer caches' sizes), kcm_bus_partitions{controller,state} (partition numbers owned: `synced` once caught
 * up, or `syncing`) and kcm_bus_input_watermark_age_seconds{controller,topic} (how far behind the watcher's
 * clock each input is known complete: a stalled pipeline shows here) and kcm_bus_store_evictions_total{controller,kind}
 * (objects a write found gone, dropped from a store that still held them: GoneOnWrite). Two parts of one upstream controller (node
 * lifecycle's node and pod parts) add up under its name.
 */
export class ControllerMetrics {
  readonly #members: { readonly controller: string; readonly probes: ControllerProbes }[] = [];
  readonly #reconciles: Counter<'controller'>;
  readonly #errors: Counter<'controller'>;
  readonly #time: Histogram<'controller'>;
  readonly #evictions: Counter<'controller' | 'kind'>;

  constructor(registry: Registry) {
    const registers = [registry];
    const members = this.#members;
    new Gauge({
      name: 'kcm_bus_cached_objects',
      help: "Objects in the controller's stores (its informer caches), by kind.",
      labelNames: ['controller', 'kind'],
      registers,
      collect() {
        this.reset();
        for (const { controller, probes } of members)
          for (const [kind, n] of Object.entries(probes.cached())) this.inc({ controller, kind }, n);
      },
    });
    new Gauge({
      name: 'kcm_bus_partitions',
      help: 'Partition numbers this member owns: synced (read up to its high-water mark at assignment) or syncing.',
      labelNames: ['controller', 'state'],
      registers,
      collect() {
        this.reset();
        for (const { controller, probes } of members) {
          const synced = probes.partitionsSynced();
          this.inc({ controller, state: 'synced' }, synced.filter(Boolean).length);
          this.inc({ controller, state: 'syncing' }, synced.filter((s) => !s).length);
        }
      },
    });
    watermarkAges(registers, members);
    this.#reconciles = new Counter({
      name: 'controller_runtime_reconcile_total',
      help: 'Total number of reconciliations per controller.',
      labelNames: ['controller'],
      registers,
    });
    this.#errors = new Counter({
      name: 'controller_runtime_reconcile_errors_total',
      help: 'Total number of reconciliation errors per controller.',
      labelNames: ['controller'],
      registers,
    });
    this.#time = new Histogram({
      name: 'controller_runtime_reconcile_time_seconds',
      help: 'Length of time per reconciliation per controller.',
      labelNames: ['controller'],
      buckets: RECONCILE_TIME_BUCKETS,
      registers,
    });
    this.#evictions = new Counter({
      name: 'kcm_bus_store_evictions_total',
      help: 'Objects dropped from a store because a write to them answered 404 while the store still held them: the watch had not brought their delete yet (a few, under churn), or the store diverged from the API (any, at rest).',
      labelNames: ['controller', 'kind'],
      registers,
    });
  }

  /** counted adds a controller member's probes and returns its hooks with their reconciles counted. */
  counted(controller: string, spec: ControllerHooks, probes: ControllerProbes): ControllerHooks {
    this.#members.push({ controller, probes });
    const [reconciles, errors, time, evictions] = [this.#reconciles, this.#errors, this.#time, this.#evictions];
    const evict = spec.evict;
    return {
      ...spec,
      ...(evict && {
        evict: (gone) => {
          const out = evict(gone);
          if (out !== undefined) evictions.inc({ controller, kind: gone.resource });
          return out;
        },
      }),
      reconcile: (key, input) => {
        reconciles.inc({ controller });
        const started = performance.now();
        const result = spec.reconcile(key, input);
        time.observe({ controller }, (performance.now() - started) / 1000);
        if (result.error !== undefined) errors.inc({ controller });
        return result;
      },
    };
  }
}

/** watermarkAges registers kcm_bus_input_watermark_age_seconds, read from every member's inputs at each scrape. */
function watermarkAges(
  registers: Registry[],
  members: readonly { readonly controller: string; readonly probes: ControllerProbes }[],
): void {
  new Gauge({
    name: 'kcm_bus_input_watermark_age_seconds',
    help: "Seconds between now and the watcher's time up to which the input topic is complete here (its oldest newest watermark).",
    labelNames: ['controller', 'topic'],
    registers,
    collect() {
      this.reset();
      const now = Date.now();
      for (const { controller, probes } of members) {
        for (const [topic, at] of Object.entries(probes.inputWatermarks()))
          if (at !== undefined) this.set({ controller, topic }, (now - at.getTime()) / 1000);
      }
    },
  });
}
