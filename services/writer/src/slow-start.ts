import {
  type MutationResult,
  type Mutation,
  SLOW_START_SKIPPED,
  type SlowStartGate,
  tookEffect,
} from '@kcm-bus/runtime/mutation/index.ts';
import { refusedResult } from './result.ts';

/**
 * withSlowStart applies the members of a slow-start run as upstream's slowStartBatch does, batches of 1, 2, 4 …, the
 * rest skipped after a batch with a failure (a Refused result, reason SlowStartSkipped: the reconciler lowers its
 * expectations for it and records no event, as manageReplicas does for skippedPods); other mutations go straight to
 * apply. A member abandoned mid-way (the writer stopping) fails nothing: the partition's next owner replays it.
 */
export function withSlowStart(
  gate: SlowStartGate,
  apply: (m: Mutation) => Promise<MutationResult>,
  now: () => string,
): (m: Mutation) => Promise<MutationResult> {
  return async (m) => {
    const s = m.slowStart;
    if (s === null) return apply(m);
    let succeeded = true;
    try {
      // Not awaited when answered at once: a member that need not wait reaches the budget in its turn (admit).
      const admitted = gate.admit(s);
      if (!(typeof admitted === 'boolean' ? admitted : await admitted)) {
        succeeded = false;
        return refusedResult(
          m,
          SLOW_START_SKIPPED,
          'not attempted: a create of an earlier batch of its slow-start run failed',
          now(),
        );
      }
      const result = await apply(m);
      succeeded = tookEffect(result);
      return result;
    } finally {
      gate.finished(s, succeeded);
    }
  };
}
