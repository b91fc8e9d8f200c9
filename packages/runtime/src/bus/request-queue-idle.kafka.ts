import { createRequire } from 'node:module';

/** QueueState is what the patch reads of kafkajs's RequestQueue (src/network/requestQueue/index.js). */
type QueueState = { readonly pending: readonly unknown[]; readonly throttledUntil: number };
type RequestQueueClass = { prototype: QueueState & { scheduleCheckPendingRequests: (this: QueueState) => void } };

/**
 * RequestQueue is kafkajs 2.2.4's per-connection request queue, loaded from its source (the package has no
 * `exports` map, so the path is stable for the version package-lock pins).
 */
export const RequestQueue = createRequire(import.meta.url)(
  'kafkajs/src/network/requestQueue/index.js',
) as RequestQueueClass;

/**
 * stopIdleRequestQueueLoop mends kafkajs 2.2.4's idle busy loop (kafkajs issues #1556 and #1704, fix proposed in
 * PRs #1667 and #1768, none released): checkPendingRequests always ends in scheduleCheckPendingRequests, which
 * with nothing pending and no throttle sets a timeout of `throttledUntil - now` (negative, so 1 ms) that calls
 * checkPendingRequests again: every broker connection of every client wakes its process a thousand times a second
 * (the TimeoutNegativeWarning Node 24 prints for it). With nothing pending and no throttle in force there is
 * nothing to check: a request that has to wait is pushed to `pending` and schedules its own check, and a finished
 * request checks the queue itself. Idempotent: the prototype is patched once.
 */
export function stopIdleRequestQueueLoop(queue: RequestQueueClass = RequestQueue): void {
  const proto = queue.prototype as RequestQueueClass['prototype'] & { [PATCHED]?: true };
  if (proto[PATCHED]) return;
  const schedule = proto.scheduleCheckPendingRequests;
  proto.scheduleCheckPendingRequests = function (this: QueueState) {
    if (this.pending.length === 0 && this.throttledUntil <= Date.now()) return;
    schedule.call(this);
  };
  proto[PATCHED] = true;
}

const PATCHED = Symbol('kcm-bus: idle loop stopped');
