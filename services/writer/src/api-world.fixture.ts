import { FakeClock } from '@kcm-bus/runtime/workqueue/index.ts';
import { DEFAULT_ALLOWLIST } from './allowlist.ts';
import type { WriterDeps } from './apply-mutation.ts';
import { DEFAULT_RETRY_POLICY } from './backoff.ts';
import { EventCorrelator } from './event-correlator.ts';
import type { KubeRequest } from './request.ts';
import type { TokenKeys } from './token/populate-token.ts';

/**
 * apiWorld is an apiserver holding these objects by REST path: a GET answers one (404 when absent), every write 200;
 * `sent` records every request. The writer's deps around it have the default allowlist and, unless null, these token
 * keys.
 */
export function apiWorld(objects: Record<string, object>, keys: TokenKeys | null = null) {
  const sent: KubeRequest[] = [];
  const deps: WriterDeps = {
    api: {
      send: async (r) => {
        sent.push(r);
        const found = r.method === 'GET' ? objects[r.path] : { metadata: { uid: 'written', resourceVersion: '8' } };
        const body = JSON.stringify(found ?? { kind: 'Status', reason: 'NotFound', message: 'not found' });
        return { type: 'Response', status: found ? 200 : 404, retryAfter: null, body };
      },
    },
    budget: { acquire: async () => {} },
    allowlist: DEFAULT_ALLOWLIST,
    correlator: new EventCorrelator(new FakeClock()),
    scheduler: { setTimeout: (fn) => queueMicrotask(fn), clearTimeout: () => {} },
    now: () => '2026-11-29T08:00:00Z',
    random: () => 0,
    policy: DEFAULT_RETRY_POLICY,
    ...(keys === null ? {} : { tokens: keys }),
  };
  return { deps, sent };
}
