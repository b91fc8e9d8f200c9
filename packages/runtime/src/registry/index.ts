/**
 * The runtime's registry area, its public entry: the schema registry port (the HTTP client is registry.http.ts). Code outside packages/runtime imports this index, an
 * adapter (`*.<impl>.ts`) or a fixture, never a module behind it (.dependency-cruiser.cjs, runtime-through-its-entries).
 */
export * from './registry.ts';
