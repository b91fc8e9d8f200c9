/**
 * The runtime's workqueue area, its public entry: client-go's workqueue: rate limiters, delays, metrics. Code outside packages/runtime imports this index, an
 * adapter (`*.<impl>.ts`) or a fixture, never a module behind it (.dependency-cruiser.cjs, runtime-through-its-entries).
 */
export * from './clock.ts';
export * from './delayed-adds.ts';
export * from './fake-clock.ts';
export * from './metrics.ts';
export * from './promise-state.ts';
export * from './rate-limiter.ts';
export * from './workqueue.ts';
