/**
 * The runtime's mutation area, its public entry: the commands a reconciler publishes on kcm.mutations, their results, and their validation. Code outside packages/runtime imports this index, an
 * adapter (`*.<impl>.ts`) or a fixture, never a module behind it (.dependency-cruiser.cjs, runtime-through-its-entries).
 */
export * from './mutation-id.ts';
export * from './mutation-result.ts';
export * from './mutation.ts';
export * from './slow-start.ts';
export * from './validate-fields.ts';
export * from './validate-mutation.ts';
