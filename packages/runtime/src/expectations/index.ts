/**
 * The runtime's expectations area, its public entry: controller expectations, the port (RedisExpectations is expectations.redis.ts). Code outside packages/runtime imports this index, an
 * adapter (`*.<impl>.ts`) or a fixture, never a module behind it (.dependency-cruiser.cjs, runtime-through-its-entries).
 */
export * from './expectations.memory.ts';
export * from './expectations.ts';
