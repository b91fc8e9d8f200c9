import { Counter, type Registry } from 'prom-client';

/** InputCounters count, by input topic, what a member's reading of its inputs went through. */
export type InputCounters = {
  /**
   * divergences: kcm_bus_store_divergences_total{topic}, an input partition whose objects, as this member read them,
   * stopped agreeing with what the watcher had published up to the same record (Inventories). Always 0 in a healthy
   * system: a divergence is a bug or a lost record, never a delay.
   */
  readonly divergences: (topic: string) => void;
  /**
   * restores: kcm_bus_state_restores_total{topic}, a state partition read from its beginning on an assignment; one
   * kept across a rebalance reads on instead (InputReader), so a restore is a partition that moved here, or a start.
   */
  readonly restores: (topic: string) => void;
};

/** inputCounters registers the InputCounters and returns their increments. */
export function inputCounters(registry: Registry): InputCounters {
  const counter = (name: string, help: string): ((topic: string) => void) => {
    const c = new Counter({ name, help, labelNames: ['topic'], registers: [registry] });
    return (topic) => c.inc({ topic });
  };
  return {
    divergences: counter(
      'kcm_bus_store_divergences_total',
      "Times an input partition's objects, as read here, stopped agreeing with the watcher's inventory at the same record.",
    ),
    restores: counter(
      'kcm_bus_state_restores_total',
      'State partitions read from their beginning on an assignment (not kept from the previous one).',
    ),
  };
}
