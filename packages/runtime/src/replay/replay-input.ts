import type { MutationResult } from '../mutation/mutation-result.ts';
import type { Mutation, MutationCause } from '../mutation/mutation.ts';
import type { InputEvent } from '../controller/controller-types.ts';

/**
 * ReplayInput is one history record at its time (ms), of a topic partition: an object event or a watermark of a
 * declared input, or one of the controller's results on kcm.mutation-results (with the cause a result names).
 */
export type ReplayInput = { readonly at: number; readonly topic: string; readonly partition: number } & (
  | { readonly kind: 'event'; readonly event: InputEvent }
  | { readonly kind: 'watermark'; readonly observedAt: Date; readonly resourceVersion: string }
  | { readonly kind: 'result'; readonly result: MutationResult; readonly cause: MutationCause }
);

/** TimedDecision is what one sync of one key decided, at its time (ms): the mutations it published (none: a no-op sync). */
export type TimedDecision = { readonly at: number; readonly key: string; readonly mutations: readonly Mutation[] };
