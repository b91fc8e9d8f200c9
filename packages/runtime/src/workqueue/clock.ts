/** Clock is the time source of the rate limiters and the workqueue, in milliseconds; injected so tests are deterministic. */
export interface Clock {
  now(): number;
}

/** TimerHandle is whatever a Scheduler returns from setTimeout; only the same Scheduler interprets it. */
export type TimerHandle = unknown;

/**
 * Scheduler runs a callback after a delay (ms). The workqueue takes it injected so tests advance a fake clock
 * instead of sleeping; a Scheduler and the Clock it is paired with must share one time base.
 */
export interface Scheduler {
  setTimeout(fn: () => void, ms: number): TimerHandle;
  clearTimeout(handle: TimerHandle): void;
}

/** MAX_TIMEOUT_MS is the longest delay Node's setTimeout honours (2^31-1 ms); longer ones would fire at once. */
export const MAX_TIMEOUT_MS = 2 ** 31 - 1;

/** realClock is a monotonic clock (performance.now), immune to wall-clock steps. */
export const realClock: Clock = { now: () => performance.now() };

/**
 * realScheduler is the global setTimeout/clearTimeout, with delays capped at MAX_TIMEOUT_MS: callers that need a
 * longer wait must check the Clock when the callback runs and schedule the remainder.
 */
export const realScheduler: Scheduler = {
  setTimeout: (fn, ms) => setTimeout(fn, Math.min(Math.max(ms, 0), MAX_TIMEOUT_MS)),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};
