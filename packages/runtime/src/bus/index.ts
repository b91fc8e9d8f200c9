/**
 * The runtime's bus area, its public entry: the Bus port: everything kcm-bus asks of Kafka, in its own words (the kafkajs adapter is bus.kafka.ts). Code outside packages/runtime imports this index, an
 * adapter (`*.<impl>.ts`) or a fixture, never a module behind it (.dependency-cruiser.cjs, runtime-through-its-entries).
 */
export * from './batcher.ts';
export * from './bus.ts';
export * from './produce-limits.ts';
export * from './read-range.ts';
export * from './read-tail.ts';
export * from './read-to-end.ts';
export * from './record-limit.ts';
