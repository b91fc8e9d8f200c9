import { Counter, Gauge, type Registry } from 'prom-client';
import type { ControllerHooks } from './controller-types.ts';

/** ControllerProbes read what a controller member holds: objects in its stores by kind, and its partitions' sync state. */
export type ControllerProbes = {
  readonly cached: () => Readonly<Record<string, number>>;
  readonly partitionsSynced: () => readonly boolean[];
};

/**
 * countedControllerHooks registers a controller member's series and returns the hooks with their reconciles counted:
 * controller_runtime_reconcile_total{controller} (controller-runtime's name: reconciles run, keys deferred while
 * their partition replays or held for their own writes excluded, which workqueue_work_duration_seconds_count
 * includes), kcm_bus_cached_objects{controller,kind} (the informer caches' sizes) and
 * kcm_bus_partitions{controller,state} (partition numbers owned: `synced` with their history, or `syncing`).
 */
export function countedControllerHooks(registry: Registry, controller: string, spec: ControllerHooks, probes: ControllerProbes): ControllerHooks {
  const registers = [registry];
  new Gauge({
    name: 'kcm_bus_cached_objects', help: 'Objects in the controller\'s stores (its informer caches), by kind.', labelNames: ['controller', 'kind'], registers,
    collect() {
      for (const [kind, n] of Object.entries(probes.cached())) this.set({ controller, kind }, n);
    },
  });
  new Gauge({
    name: 'kcm_bus_partitions', help: 'Partition numbers this member owns: synced (caught up with their history) or syncing.', labelNames: ['controller', 'state'], registers,
    collect() {
      const synced = probes.partitionsSynced();
      this.set({ controller, state: 'synced' }, synced.filter(Boolean).length);
      this.set({ controller, state: 'syncing' }, synced.filter((s) => !s).length);
    },
  });
  const reconciles = new Counter({ name: 'controller_runtime_reconcile_total', help: 'Total number of reconciliations per controller.', labelNames: ['controller'], registers });
  return { ...spec, reconcile: (key, input) => {
    reconciles.inc({ controller });
    return spec.reconcile(key, input);
  } };
}
