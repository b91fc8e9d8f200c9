import { Counter, type Registry } from 'prom-client';
import { deadLetterCounter } from '@kcm-bus/runtime/faults/dead-letters.prom.ts';
import type { MutationResult } from '@kcm-bus/runtime/mutation/index.ts';

/** WriterMetrics counts what the writer did with each record. */
export type WriterMetrics = {
  readonly result: (r: MutationResult) => void;
  readonly deadLetter: (topic: string) => void;
};

/**
 * promWriterMetrics registers kcm_bus_writer_mutations_total{controller,verb,outcome} and
 * kcm_bus_dead_letters_total{topic} (the series every kcm-bus consumer counts its dead letters in, by source topic).
 */
export function promWriterMetrics(registry: Registry): WriterMetrics {
  const registers = [registry];
  const results = new Counter({
    name: 'kcm_bus_writer_mutations_total',
    help: 'Mutations carried to a result, by controller, verb and outcome.',
    labelNames: ['controller', 'verb', 'outcome'],
    registers,
  });
  return {
    result: (r) => results.inc({ controller: r.controller, verb: r.verb, outcome: r.outcome }),
    deadLetter: deadLetterCounter(registry),
  };
}
