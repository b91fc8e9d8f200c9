import { Counter, type Registry } from 'prom-client';

/**
 * deadLetterCounter registers kcm_bus_dead_letters_total{topic}, the series every kcm-bus consumer counts its dead
 * letters in (by source topic), and returns its increment.
 */
export function deadLetterCounter(registry: Registry): (topic: string) => void {
  const counter = new Counter({
    name: 'kcm_bus_dead_letters_total',
    help: "Records sent to their topic's dead-letter topic, by source topic.",
    labelNames: ['topic'],
    registers: [registry],
  });
  return (topic) => counter.inc({ topic });
}
