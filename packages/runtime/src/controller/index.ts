/**
 * The runtime's controller area, its public entry: the controller side: declarations, stores and informers, per-key state, expectations, read your writes. Code outside packages/runtime imports this index, an
 * adapter (`*.<impl>.ts`) or a fixture, never a module behind it (.dependency-cruiser.cjs, runtime-through-its-entries).
 */
export * from './catalog-declaration.ts';
export * from './controller-types.ts';
export * from './controller.ts';
export * from './cuts.ts';
export * from './declaration.ts';
export * from './gone-on-write.ts';
export * from './informers.ts';
export * from './key-expectations.ts';
export * from './key-states.ts';
export * from './read-your-writes.ts';
export * from './reconciler.ts';
