import type { Backoff } from '@kcm-bus/runtime/flowcontrol/index.ts';
import type { Scheduler, TimerHandle } from '@kcm-bus/runtime/workqueue/index.ts';

/**
 * RetryPolicy bounds the writer's retries of 429, 5xx and unanswered requests: the runtime's Backoff (delays from
 * durationMs by a factor up to capMs, each stretched by up to `jitter` times itself) and, after maxAttempts requests,
 * the mutation is Failed. A Retry-After answer is honoured instead of the backoff (capped at capMs too).
 */
export type RetryPolicy = Backoff & { readonly maxAttempts: number };

/**
 * DEFAULT_RETRY_POLICY: 100 ms doubling to 30 s, jitter up to +100 % (so 1000 creates refused together do not come
 * back together) and capped at 30 s again, 10 attempts (client-go's rest client also gives up after 10 Retry-After
 * retries): about a minute of trying before Failed.
 */
export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  durationMs: 100,
  factor: 2,
  jitter: 1,
  capMs: 30_000,
  capJittered: true,
  maxAttempts: 10,
};

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
