import type { Scheduler } from '@kcm-bus/runtime/workqueue/index.ts';
import { abortableSleep, type RetryPolicy } from './backoff.ts';
import { classify, type Final, type HttpAnswer, nextStep } from './outcome.ts';
import { getRequest, type KubeRequest } from './request.ts';
import { resourcePath, type RestLocation } from './rest-path.ts';

/**
 * KubeApi is the port `api.kube.ts` implements over HTTPS with the kubeconfig's identity: send
 * one described request and report the answer; a timeout or a broken connection is a NoResponse answer, not a
 * throw. It is also where rest_client_requests_total and rest_client_request_duration_seconds are observed.
 */
export interface KubeApi {
  send(request: KubeRequest): Promise<HttpAnswer>;
}

/** RequestGate is the request budget as the writer needs it: wait for a token of the controller's before every request. */
export interface RequestGate {
  acquire(controller: string): Promise<void>;
}

/** SendDeps are what sending needs: the API, the budget, a scheduler and random source for retry waits, the policy. */
export type SendDeps = {
  readonly api: KubeApi;
  readonly budget: RequestGate;
  readonly scheduler: Scheduler;
  readonly random: () => number;
  readonly policy: RetryPolicy;
  readonly signal?: AbortSignal;
};

/** Sent is a request's final verdict, the attempts it took and the final answer's body (null: no answer). */
export type Sent = { readonly verdict: Final; readonly attempts: number; readonly body: string | null };

/** unsent is the Sent of a write the writer decided against or found done without a request (a verdict of its own). */
export function unsent(verdict: Final): Sent {
  return { verdict, attempts: 0, body: null };
}

/** send makes attempts until the answer is final or the policy gives up, waiting for the controller's budget before each. */
export async function send(request: KubeRequest, controller: string, deps: SendDeps): Promise<Sent> {
  for (let attempts = 1; ; attempts++) {
    deps.signal?.throwIfAborted();
    await deps.budget.acquire(controller);
    const answer = await deps.api.send(request);
    const step = nextStep(classify(request, answer), attempts, deps.policy, deps.random);
    if (step.type === 'Final')
      return { verdict: step, attempts, body: answer.type === 'Response' ? answer.body : null };
    await abortableSleep(step.delayMs, deps.scheduler, deps.signal);
  }
}

/** Json is an object as the API serves it. */
export type Json = Record<string, unknown>;

/** Read is what a GET found: the object, or null when the API says NotFound; failed when it said neither. */
export type Read =
  { readonly found: Json | null; readonly attempts: number } | { readonly failed: Final; readonly attempts: number };

/** readObject GETs one object (the target's resource, in `namespace`, by `name`) through the budget, with retries. */
export async function readObject(
  target: RestLocation & { readonly name: string },
  controller: string,
  deps: SendDeps,
): Promise<Read> {
  const request = getRequest(resourcePath(target, target.name), 'application/json', target.name);
  const { verdict, attempts, body } = await send(request, controller, deps);
  if (verdict.status === 404) return { found: null, attempts };
  if (verdict.outcome !== 'Applied' || body === null) return { failed: verdict, attempts };
  return { found: JSON.parse(body) as Json, attempts };
}
