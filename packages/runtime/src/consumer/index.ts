/**
 * The runtime's consumer area, its public entry: the consumer side: group membership, restore from the state topics, input readers, routing records to controllers. Code outside packages/runtime imports this index, an
 * adapter (`*.<impl>.ts`) or a fixture, never a module behind it (.dependency-cruiser.cjs, runtime-through-its-entries).
 */
export * from './cache-sync.ts';
export * from './co-partition.ts';
export * from './controller-group-options.ts';
export * from './controller-group.ts';
export * from './group-publisher.ts';
export * from './input-reader.ts';
export * from './inventory.ts';
export * from './part-dispatch.ts';
export * from './record-intake.ts';
export * from './record-route.ts';
export * from './state-handoff.ts';
export * from './watermarks.ts';
