import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { busFlags, rawKube, testStack, uniqueName } from '../support/stack.ts';
import { metricValue, startService, stopAllServices, type ServiceProcess } from '@kcm-bus/harness/processes.ts';
import {
  outcomeOf,
  ownedNamespace,
  podCreate,
  type PodOwner,
  produceMutations,
  resultsFor,
} from '@kcm-bus/harness/mutations.ts';
import { waitFor } from '@kcm-bus/harness/wait.ts';

const stack = testStack();
const kube = rawKube();
const dir = mkdtempSync(join(tmpdir(), 'kcm-bus-rotating-token-'));
const tokenFile = join(dir, 'token');

/** tokenOf mints a token of a ServiceAccount with the TokenRequest API (what the kubelet projects into a pod). */
async function tokenOf(ns: string, sa: string): Promise<string> {
  const answer = await kube('POST', `/api/v1/namespaces/${ns}/serviceaccounts/${sa}/token`, {
    spec: { expirationSeconds: 3600 },
  });
  return (answer['status'] as { token: string }).token;
}

/** rotateTo replaces the token file as the kubelet does: a new file renamed over the old one. */
function rotateTo(token: string): void {
  writeFileSync(`${tokenFile}.new`, token);
  renameSync(`${tokenFile}.new`, tokenFile);
}

/** tokenKubeconfig is a kubeconfig for the stack's apiserver whose user reads its token from tokenFile (client-go's field). */
function tokenKubeconfig(): string {
  const admin = JSON.parse(readFileSync(stack.kubeconfig, 'utf8')) as { clusters: unknown[] };
  const file = join(dir, 'kubeconfig');
  writeFileSync(
    file,
    JSON.stringify({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: admin.clusters,
      'current-context': 'rotating',
      contexts: [{ name: 'rotating', context: { cluster: 'kcm-bus-local', user: 'rotating' } }],
      users: [{ name: 'rotating', user: { tokenFile: 'token' } }],
    }),
  );
  return file;
}

describe('the writer follows a token file that rotates under it', () => {
  const ns = uniqueName('rot');
  const binding = `kcm-bus:writer:${ns}`;
  let owner: PodOwner;
  let writer: ServiceProcess;

  before(async () => {
    owner = await ownedNamespace(kube, ns);
    for (const sa of ['first', 'second'])
      await kube('POST', `/api/v1/namespaces/${ns}/serviceaccounts`, { metadata: { name: sa } });
    await kube('POST', '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings', {
      metadata: { name: binding },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'kcm-bus:writer' },
      subjects: ['first', 'second'].map((name) => ({ kind: 'ServiceAccount', name, namespace: ns })),
    });
  });
  after(async () => {
    await stopAllServices();
    await kube('DELETE', `/apis/rbac.authorization.k8s.io/v1/clusterrolebindings/${encodeURIComponent(binding)}`).catch(
      () => undefined,
    );
    // The pods are bound to a node no kubelet runs: only a zero grace period deletes them, and with them the namespace.
    await kube('DELETE', `/api/v1/namespaces/${ns}/pods?gracePeriodSeconds=0`).catch(() => undefined);
    await kube('DELETE', `/api/v1/namespaces/${ns}`).catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  });

  it('given the first token revoked and the file rewritten with a second, then a mutation after the change is Applied with the second', async () => {
    const first = await tokenOf(ns, 'first');
    rotateTo(first);
    writer = await startService('writer', ['--kubeconfig', tokenKubeconfig(), ...busFlags(stack), '--partitions', '3']);
    const before = podCreate(ns, 'before', owner);
    await produceMutations(stack, [before]);
    assert.equal(outcomeOf(await resultsFor(stack, [before]), before), 'Applied', 'the first token works');

    const second = await tokenOf(ns, 'second');
    await kube('DELETE', `/api/v1/namespaces/${ns}/serviceaccounts/first`);
    await waitFor(
      'the first token revoked',
      async () => {
        const review = await kube('POST', '/apis/authentication.k8s.io/v1/tokenreviews', { spec: { token: first } });
        return (review['status'] as { authenticated?: boolean }).authenticated !== true;
      },
      { timeoutMs: 60_000 },
    );
    rotateTo(second);

    const afterRotation = podCreate(ns, 'after', owner);
    await produceMutations(stack, [afterRotation]);
    assert.equal(
      outcomeOf(await resultsFor(stack, [afterRotation]), afterRotation),
      'Applied',
      'the second token, read from the rewritten file',
    );
    const pod = await kube('GET', `/api/v1/namespaces/${ns}/pods/after`);
    assert.equal((pod['metadata'] as { name: string }).name, 'after');
    assert.equal(
      await metricValue(writer, 'rest_client_requests_total', { code: '401' }),
      0,
      'the rewritten file was read before any request was refused',
    );
  });
});
