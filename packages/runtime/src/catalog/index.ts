/**
 * The runtime's catalog area, its public entry: what a controller catalog entry is (the catalog itself is packages/catalog). Code outside packages/runtime imports this index, an
 * adapter (`*.<impl>.ts`) or a fixture, never a module behind it (.dependency-cruiser.cjs, runtime-through-its-entries).
 */
export * from './entry.ts';
