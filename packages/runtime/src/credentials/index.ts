/**
 * The runtime's credentials area, its public entry: credentials that rotate. Code outside packages/runtime imports this index, an
 * adapter (`*.<impl>.ts`) or a fixture, never a module behind it (.dependency-cruiser.cjs, runtime-through-its-entries).
 */
export * from './credentials.ts';
