/**
 * The runtime's service area, its public entry: the service shell: flags, logs, lifecycle (main.node.ts runs a service). Code outside packages/runtime imports this index, an
 * adapter (`*.<impl>.ts`) or a fixture, never a module behind it (.dependency-cruiser.cjs, runtime-through-its-entries).
 */
export * from './common.ts';
export * from './flags.ts';
export * from './go-duration.ts';
export * from './kafka-security.ts';
export * from './launch.ts';
export * from './lifecycle.ts';
export * from './log.ts';
