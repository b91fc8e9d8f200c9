import type { Clock, Scheduler } from '@kcm-bus/runtime/workqueue/index.ts';
import { TokenBucket } from '@kcm-bus/runtime/flowcontrol/index.ts';
import { CONTROLLERS } from '@kcm-bus/catalog/controllers.ts';

/** CLIENT_SCALES are the catalog's clientScale by controller: a client of its own given more than the flags say. */
const CLIENT_SCALES = new Map(CONTROLLERS.flatMap((c) => (c.clientScale ? [[c.name, c.clientScale] as const] : [])));

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
  if (Number.isNaN(qps) || Number.isNaN(burst) || burst < 0)
    throw new RangeError(`invalid budget: --kube-api-qps=${qps} --kube-api-burst=${burst}`);
  return { qps: qps < 0 ? Infinity : qps === 0 ? 5 : qps, burst: burst === 0 ? 10 : burst };
}

/**
 * RequestBudget is the token bucket every apiserver request of one controller passes, retries included, a bucket per
 * controller: kube-controller-manager gives each controller a client of its own (ControllerClientBuilder, one
 * rest.Config per controller name), each with the rate limiter of --kube-api-qps and --kube-api-burst
 * (flowcontrol.NewTokenBucketRateLimiter(qps, burst).Wait), scaled for the controllers upstream scales (the namespace
 * controller's QPS ×20, burst ×100: the catalog's clientScale). The runtime's TokenBucket, so callers queue fairly
 * (each acquire reserves a token now and waits its turn).
 */
export class RequestBudget {
  readonly #config: BudgetConfig;
  readonly #clock: Clock;
  readonly #buckets = new Map<string, TokenBucket>();
  readonly #scheduler: Scheduler;

  constructor(config: BudgetConfig, clock: Clock, scheduler: Scheduler) {
    this.#config = config;
    this.#clock = clock;
    this.#scheduler = scheduler;
  }

  /** reserve takes a token of the controller's bucket and returns how many ms to wait before sending (0 while the burst lasts). */
  reserve(controller: string): number {
    return this.#bucket(controller).reserve();
  }

  /** acquire resolves when the controller's request may be sent (tokenBucketRateLimiter.Wait). */
  acquire(controller: string): Promise<void> {
    return this.#bucket(controller).wait(this.#scheduler);
  }

  #bucket(controller: string): TokenBucket {
    let bucket = this.#buckets.get(controller);
    if (bucket === undefined) {
      const scale = CLIENT_SCALES.get(controller) ?? { qps: 1, burst: 1 };
      const [qps, burst] = [this.#config.qps * scale.qps, this.#config.burst * scale.burst];
      this.#buckets.set(controller, (bucket = new TokenBucket(qps, burst, this.#clock)));
    }
    return bucket;
  }
}
