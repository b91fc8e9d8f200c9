/**
 * The runtime's flowcontrol area, its public entry: backoff and token buckets. Code outside packages/runtime imports this index, an
 * adapter (`*.<impl>.ts`) or a fixture, never a module behind it (.dependency-cruiser.cjs, runtime-through-its-entries).
 */
export * from './backoff.ts';
export * from './token-bucket.ts';
