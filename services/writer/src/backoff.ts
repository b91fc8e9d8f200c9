import type { Scheduler, TimerHandle } from '@kcm-bus/runtime/workqueue/clock.ts';

/**
 * RetryPolicy bounds the writer's retries of 429, 5xx and unanswered requests: delays grow from baseMs by a factor
 * of 2 up to capMs, each stretched by up to `jitter` times itself, and after maxAttempts requests the mutation is
 * Failed. A Retry-After answer is honoured instead of the backoff (capped at capMs too).
 */
export type RetryPolicy = {
  readonly baseMs: number;
  readonly capMs: number;
  readonly jitter: number;
  readonly maxAttempts: number;
};

/**
 * DEFAULT_RETRY_POLICY: 100 ms doubling to 30 s, jitter up to +100 % (so 1000 creates refused together do not come
 * back together), 10 attempts (client-go's rest client also gives up after 10 Retry-After retries): about a minute
 * of trying before Failed.
 */
export const DEFAULT_RETRY_POLICY: RetryPolicy = { baseMs: 100, capMs: 30_000, jitter: 1, maxAttempts: 10 };

/**
 * backoffDelay is the wait before retry number `attempt` (1 = the first retry): base·2^(attempt-1) capped, plus
 * wait.Jitter's random share, capped again. random returns [0, 1) and is injected so tests are exact. Mirrors
 * k8s.io/apimachinery wait.Backoff.Step with Factor 2.
 */
export function backoffDelay(attempt: number, policy: RetryPolicy, random: () => number): number {
  const exponent = Math.min(Math.max(attempt - 1, 0), 52);
  const delay = Math.min(policy.baseMs * 2 ** exponent, policy.capMs);
  return Math.min(delay + delay * policy.jitter * random(), policy.capMs);
}

/**
 * retryAfterMs reads a Retry-After header as client-go does (rest.retryAfterSeconds): whole seconds only; an
 * HTTP-date or garbage counts as absent (null), so the backoff applies. The apiserver sends seconds (APF: 1).
 */
export function retryAfterMs(header: string | null): number | null {
  if (header === null || !/^\s*\d+\s*$/.test(header)) return null;
  return Number(header.trim()) * 1000;
}

/**
 * abortableSleep waits ms on the injected scheduler, cut short (rejecting with the signal's reason) when the signal
 * aborts, so a stopping writer abandons its retries at once instead of waiting them out.
 */
export function abortableSleep(ms: number, scheduler: Scheduler, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    let timer: TimerHandle;
    const onAbort = (): void => {
      scheduler.clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    timer = scheduler.setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
  });
}
