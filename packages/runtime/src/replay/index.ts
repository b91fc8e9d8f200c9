/**
 * The runtime's replay area, its public entry: the replay command's pure parts (replay.node.ts runs it). Code outside packages/runtime imports this index, an
 * adapter (`*.<impl>.ts`) or a fixture, never a module behind it (.dependency-cruiser.cjs, runtime-through-its-entries).
 */
export * from './controller-replay.ts';
export * from './replay-diff.ts';
export * from './replay-expectations.ts';
export * from './replay-input.ts';
export * from './replay-report.ts';
export * from './replay-watermarks.ts';
export * from './replay-workqueue.ts';
export * from './replay-writer.ts';
export * from './window.ts';
