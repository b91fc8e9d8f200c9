import type { Clock, Scheduler } from '@kcm-bus/runtime/workqueue/clock.ts';
import { TokenBucket } from '@kcm-bus/runtime/flowcontrol/token-bucket.ts';

/** DEFAULT_KUBE_API_QPS is kube-controller-manager's --kube-api-qps default (it overrides client-go's 5). */
export const DEFAULT_KUBE_API_QPS = 20;

/** DEFAULT_KUBE_API_BURST is kube-controller-manager's --kube-api-burst default (it overrides client-go's 10). */
export const DEFAULT_KUBE_API_BURST = 30;

/** BudgetConfig is the writer's request budget: qps may be Infinity (no client-side limit). */
export type BudgetConfig = { readonly qps: number; readonly burst: number };

/**
 * budgetConfig reads --kube-api-qps and --kube-api-burst as client-go's RESTClientFor does: qps 0 means DefaultQPS
 * (5), burst 0 means DefaultBurst (10), a negative qps disables client-side rate limiting (the "uncapped" runs).
 */
export function budgetConfig(qps: number, burst: number): BudgetConfig {
  if (Number.isNaN(qps) || Number.isNaN(burst) || burst < 0) throw new RangeError(`invalid budget: --kube-api-qps=${qps} --kube-api-burst=${burst}`);
  return { qps: qps < 0 ? Infinity : qps === 0 ? 5 : qps, burst: burst === 0 ? 10 : burst };
}

/**
 * RequestBudget is the one token bucket every apiserver request of a writer passes, retries included, like the
 * rate limiter inside a client-go rest.Config (flowcontrol.NewTokenBucketRateLimiter(qps, burst).Wait): the
 * runtime's TokenBucket, so callers queue fairly (each acquire reserves a token now and waits its turn).
 */
export class RequestBudget {
  readonly #bucket: TokenBucket;
  readonly #scheduler: Scheduler;

  constructor(config: BudgetConfig, clock: Clock, scheduler: Scheduler) {
    this.#bucket = new TokenBucket(config.qps, config.burst, clock);
    this.#scheduler = scheduler;
  }

  /** reserve takes a token and returns how many ms to wait before sending (0 while the burst lasts). */
  reserve(): number {
    return this.#bucket.reserve();
  }

  /** acquire resolves when the caller may send its request (tokenBucketRateLimiter.Wait). */
  acquire(): Promise<void> {
    return this.#bucket.wait(this.#scheduler);
  }
}
