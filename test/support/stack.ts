import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { httpCall } from '@kcm-bus/stack/probes.ts';
import { tlsClient } from '@kcm-bus/stack/pki.ts';
import { CoordinationV1Api, CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import type { StackEndpoints } from '@kcm-bus/stack/endpoints.ts';

/** testStack reads where the test run's stack is; integration tests run only under `npm test`. */
export function testStack(): StackEndpoints {
  const file = process.env['KCM_BUS_TEST_STACK'];
  if (!file) throw new Error('KCM_BUS_TEST_STACK is not set: integration tests run under `npm test`, which starts the test stack');
  return JSON.parse(readFileSync(file, 'utf8')) as StackEndpoints;
}

/** busFlags and kafkaFlags are the stack's own (what `npm start` gives its services), for tests to start theirs alike. */
export { busFlags, kafkaFlags } from '@kcm-bus/stack/endpoints.ts';

/** kubeClients are client-node API clients for one kubeconfig of the test stack. */
export function kubeClients(kubeconfig: string): { readonly core: CoreV1Api; readonly coordination: CoordinationV1Api } {
  const kc = new KubeConfig();
  kc.loadFromFile(kubeconfig);
  return { core: kc.makeApiClient(CoreV1Api), coordination: kc.makeApiClient(CoordinationV1Api) };
}

/** uniqueName makes object names that do not collide between tests or runs. */
export function uniqueName(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`;
}

/** RawKube makes API calls with the admin identity and returns the JSON as the apiserver wrote it. */
export type RawKube = (method: string, path: string, body?: unknown) => Promise<Record<string, unknown>>;

/** rawKube is for tests that compare API objects byte for byte with what kcm-bus published (client-node turns times into Dates). */
export function rawKube(): RawKube {
  const file = process.env['KCM_BUS_TEST_STACK'] ?? '';
  const tls = tlsClient(dirname(file), 'admin');
  const server = testStack().apiserver;
  return async (method, path, body) => {
    const answer = await httpCall(`${server}${path}`, { method, tls, timeoutMs: 60_000, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    if (answer.status >= 300) throw new Error(`${method} ${path}: ${answer.status} ${answer.body.slice(0, 300)}`);
    return JSON.parse(answer.body) as Record<string, unknown>;
  };
}
