/**
 * The runtime's store area, its public entry: stores, indexes and listers. Code outside packages/runtime imports this index, an
 * adapter (`*.<impl>.ts`) or a fixture, never a module behind it (.dependency-cruiser.cjs, runtime-through-its-entries).
 */
export * from './index-funcs.ts';
export * from './indices.ts';
export * from './interner.ts';
export * from './store.ts';
