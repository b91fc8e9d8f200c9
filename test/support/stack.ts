import { CoordinationV1Api, CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import type { StackEndpoints } from '@kcm-bus/stack/endpoints.ts';
import { kwokNode } from '@kcm-bus/stack/kube-access.ts';
import { rawKube as rawKubeOf, readEndpoints, type RawKube, untaintWhenReady } from '@kcm-bus/harness/kube.ts';

/** stackFile is the test run's stack endpoints file; integration tests run only under `npm test`. */
function stackFile(): string {
  const file = process.env['KCM_BUS_TEST_STACK'];
  if (!file)
    throw new Error(
      'KCM_BUS_TEST_STACK is not set: integration tests run under `npm test`, which starts the test stack',
    );
  return file;
}

/** testStack reads where the test run's stack is. */
export function testStack(): StackEndpoints {
  return readEndpoints(stackFile());
}

/** busFlags and kafkaFlags are the stack's own (what `npm start` gives its services), for tests to start theirs alike. */
export { busFlags, kafkaFlags, serviceBusFlags } from '@kcm-bus/stack/endpoints.ts';

/**
 * testWriterFlags are a test's writer: these bus flags, the stack's writer kubeconfig, 3 partitions and a budget of
 * 100/100, so that the API budget never paces a test.
 */
export function testWriterFlags(bus: readonly string[]): string[] {
  const budget = ['--kube-api-qps', '100', '--kube-api-burst', '100'];
  return [...bus, '--kubeconfig', testStack().kubeconfigs.writer, '--partitions', '3', ...budget];
}

/** RawKube, uniqueName and untaintWhenReady are the harness's (packages/harness/src/kube.ts), on the test stack here. */
export { type RawKube, uniqueName, untaintWhenReady } from '@kcm-bus/harness/kube.ts';

/** kubeClients are client-node API clients for one kubeconfig of the test stack. */
export function kubeClients(kubeconfig: string): {
  readonly core: CoreV1Api;
  readonly coordination: CoordinationV1Api;
} {
  const kc = new KubeConfig();
  kc.loadFromFile(kubeconfig);
  return { core: kc.makeApiClient(CoreV1Api), coordination: kc.makeApiClient(CoordinationV1Api) };
}

/** rawKube is the harness's raw API client (packages/harness/src/kube.ts) on the test stack. */
export function rawKube(): RawKube {
  return rawKubeOf(stackFile());
}

/**
 * schedulableKwokNode creates a node the stack's kwok runs and makes it schedulable (untaintWhenReady).
 */
export async function schedulableKwokNode(name: string): Promise<void> {
  const kube = rawKube();
  await kube('POST', '/api/v1/nodes', kwokNode(name));
  await untaintWhenReady(kube, name);
}
