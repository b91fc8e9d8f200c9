import { Counter, type Registry } from 'prom-client';

/**
 * divergenceCounter registers kcm_bus_store_divergences_total{topic} and returns its increment: an input partition
 * whose objects, as this member read them, stopped agreeing with what the watcher had published up to the same
 * record (Inventories). Always 0 in a healthy system: a divergence is a bug or a lost record, never a delay.
 */
export function divergenceCounter(registry: Registry): (topic: string) => void {
  const counter = new Counter({
    name: 'kcm_bus_store_divergences_total',
    help: "Times an input partition's objects, as read here, stopped agreeing with the watcher's inventory at the same record.",
    labelNames: ['topic'],
    registers: [registry],
  });
  return (topic) => counter.inc({ topic });
}
