/**
 * The runtime's signing area, its public entry: signed mutations and results. Code outside packages/runtime imports this index, an
 * adapter (`*.<impl>.ts`) or a fixture, never a module behind it (.dependency-cruiser.cjs, runtime-through-its-entries).
 */
export * from './signing.ts';
export * from './keyed-digest.ts';
