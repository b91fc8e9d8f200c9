/**
 * The runtime's faults area, its public entry: what a record that cannot be handled is, and the guard that dead-letters or retries it. Code outside packages/runtime imports this index, an
 * adapter (`*.<impl>.ts`) or a fixture, never a module behind it (.dependency-cruiser.cjs, runtime-through-its-entries).
 */
export * from './record-fault.ts';
export * from './record-guard.ts';
