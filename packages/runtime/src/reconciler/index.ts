/**
 * The runtime's reconciler area, its public entry: the reconciler service: a service of declared controllers, consumer and controller sides joined (run-controllers.node.ts). Code outside packages/runtime imports this index, an
 * adapter (`*.<impl>.ts`) or a fixture, never a module behind it (.dependency-cruiser.cjs, runtime-through-its-entries).
 */
export * from './controller-flags.ts';
