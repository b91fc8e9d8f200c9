import { Counter, Gauge, type Registry } from 'prom-client';
import type { ControllerHooks } from './controller-types.ts';

/** MetricsRegistry is the service's metrics registry, where a controller's own series (upstream's names) register. */
export type MetricsRegistry = Registry;

/** ControllerProbes read what a controller member holds: objects in its stores by kind, and its partitions' sync state. */
export type ControllerProbes = {
  readonly cached: () => Readonly<Record<string, number>>;
  readonly partitionsSynced: () => readonly boolean[];
};

/**
 * ControllerMetrics registers a service's controller series once and counts every controller it runs:
 * controller_runtime_reconcile_total{controller} (controller-runtime's name: reconciles run, keys deferred while
 * their partition replays or held for their own writes excluded, which workqueue_work_duration_seconds_count
 * includes), kcm_bus_cached_objects{controller,kind} (the informer caches' sizes) and kcm_bus_partitions{controller,state}
 * (partition numbers owned: `synced` with their history, or `syncing`). Two parts of one upstream controller (node
 * lifecycle's node and pod halves) add up under its name.
 */
export class ControllerMetrics {
  readonly #members: { readonly controller: string; readonly probes: ControllerProbes }[] = [];
  readonly #reconciles: Counter<'controller'>;

  constructor(registry: Registry) {
    const registers = [registry];
    const members = this.#members;
    new Gauge({
      name: 'kcm_bus_cached_objects', help: 'Objects in the controller\'s stores (its informer caches), by kind.', labelNames: ['controller', 'kind'], registers,
      collect() {
        this.reset();
        for (const { controller, probes } of members) for (const [kind, n] of Object.entries(probes.cached())) this.inc({ controller, kind }, n);
      },
    });
    new Gauge({
      name: 'kcm_bus_partitions', help: 'Partition numbers this member owns: synced (caught up with their history) or syncing.', labelNames: ['controller', 'state'], registers,
      collect() {
        this.reset();
        for (const { controller, probes } of members) {
          const synced = probes.partitionsSynced();
          this.inc({ controller, state: 'synced' }, synced.filter(Boolean).length);
          this.inc({ controller, state: 'syncing' }, synced.filter((s) => !s).length);
        }
      },
    });
    this.#reconciles = new Counter({ name: 'controller_runtime_reconcile_total', help: 'Total number of reconciliations per controller.', labelNames: ['controller'], registers });
  }

  /** counted adds a controller member's probes and returns its hooks with their reconciles counted. */
  counted(controller: string, spec: ControllerHooks, probes: ControllerProbes): ControllerHooks {
    this.#members.push({ controller, probes });
    const reconciles = this.#reconciles;
    return { ...spec, reconcile: (key, input) => {
      reconciles.inc({ controller });
      return spec.reconcile(key, input);
    } };
  }
}
