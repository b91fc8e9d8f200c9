/**
 * The runtime's partition area, its public entry: the partitioner every producer uses (Kafka's Java murmur2). Code outside packages/runtime imports this index, an
 * adapter (`*.<impl>.ts`) or a fixture, never a module behind it (.dependency-cruiser.cjs, runtime-through-its-entries).
 */
export * from './murmur2.ts';
