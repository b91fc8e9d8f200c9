import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { frame } from '@kcm-bus/runtime/codec/index.ts';
import type { Mutation } from '@kcm-bus/runtime/mutation/index.ts';
import { objectKey } from '@kcm-bus/schemas/kinds.ts';
import { MUTATION_TOPICS } from '@kcm-bus/schemas/mutation-schemas.fs.ts';
import { stackConfig } from '@kcm-bus/stack/config.ts';
import { locateAll } from '@kcm-bus/stack/obtain-all.ts';
import { dataParts } from '@kcm-bus/stack/parts.ts';
import { stopProcess } from '@kcm-bus/stack/procs.ts';
import { startPart } from '@kcm-bus/stack/start.ts';
import { busFlags, rawKube, testStack, uniqueName } from '../support/stack.ts';
import { metricValue, startService, stopAllServices, type ServiceProcess } from '@kcm-bus/harness/processes.ts';
import {
  mutation,
  mutationSerde,
  outcomeOf,
  signerOf,
  ownedNamespace,
  ownerRc,
  podCreate,
  type PodOwner,
  podTarget,
  produceMutations,
  resultsFor,
} from '@kcm-bus/harness/mutations.ts';
import { readRaw, readTopic } from '@kcm-bus/harness/topic.ts';
import { waitFor } from '@kcm-bus/harness/wait.ts';
import { readFileSync } from 'node:fs';

const stack = testStack();
const kube = rawKube();
const writerArgs = ['--kubeconfig', stack.kubeconfigs.writer, ...busFlags(stack), '--partitions', '3'];
const readyz = async (w: ServiceProcess): Promise<{ status: number; body: string }> => {
  const res = await fetch(w.metricsUrl.replace('/metrics', '/readyz'));
  return { status: res.status, body: await res.text() };
};
const deadLettersOf = async (
  prefix: string,
): Promise<{ key: string; headers: Readonly<Record<string, string>>; bytes: number }[]> =>
  (await readRaw(stack, MUTATION_TOPICS.deadLetters))
    .filter((r) => r.key.startsWith(prefix))
    .map((r) => ({ key: r.key, headers: r.headers, bytes: r.value?.length ?? 0 }));

/** registryPart stops and starts the stack's schema registry by its recorded pid (its H2 file keeps the schema ids). */
function registryPart(): { readonly stop: () => Promise<unknown>; readonly start: () => Promise<void> } {
  const c = stackConfig(process.env['KCM_BUS_TEST_PROFILE'] ?? 'test');
  const part = dataParts(c, locateAll()).find((p) => p.name === 'registry');
  if (!part) throw new Error('no registry part');
  return { stop: () => stopProcess(c.dir, part.name), start: () => startPart(c, part, () => undefined) };
}

describe('the writer under faults: no record stops it, a transient fault is retried, SIGTERM is prompt', () => {
  const ns = uniqueName('wrf');
  const serde = mutationSerde(stack);
  let writer: ServiceProcess;
  let owner: PodOwner;

  before(async () => {
    owner = await ownedNamespace(kube, ns);
    writer = await startService('writer', writerArgs);
  });
  after(stopAllServices);

  it('sends garbage and absurd mutations to the dead-letter topic, counted and logged once per kind, and applies the next good one', async () => {
    const absurd: Mutation[] = [
      mutation({
        verb: 'Delete',
        target: podTarget(ns, 'non-json-delete'),
        preconditions: { uid: 'u', resourceVersion: null },
        body: 'not json',
      }),
      mutation({
        verb: 'Delete',
        controller: 'not-a-controller',
        target: podTarget(ns, 'refused-non-json'),
        preconditions: { uid: 'u', resourceVersion: null },
        body: '{',
      }),
      mutation({ verb: 'Patch', target: podTarget(ns, 'non-json-patch'), patchType: 'merge', patch: '{"spec":' }),
      mutation({ verb: 'Evict' as Mutation['verb'], target: podTarget(ns, 'unknown-verb') }),
      podCreate(ns, 'huge-controller', owner, { controller: 'c'.repeat(200_000) }),
      mutation({ verb: 'Delete', target: podTarget(ns, ''), preconditions: { uid: 'u', resourceVersion: null } }),
    ];
    const valid = (await serde.encode(podCreate(ns, 'x', owner))).bytes;
    const raw = [
      { key: `${ns}/wrong-magic`, value: Buffer.from('not avro at all') },
      { key: `${ns}/unknown-schema`, value: frame(987654, Buffer.from([1, 2, 3])) },
      { key: `${ns}/truncated-avro`, value: valid.subarray(0, 12) },
    ];
    // Just under what a kcm-bus producer sends (MAX_REQUEST_BYTES): its dead letter, with the reason headers, is not.
    const huge = { key: `${ns}/huge`, value: Buffer.alloc(999_900, 0x41) };
    const good = podCreate(ns, 'after-garbage', owner);
    await produceMutations(stack, absurd, raw);
    await produceMutations(stack, [], [huge]);
    await produceMutations(stack, [good]);
    assert.equal(outcomeOf(await resultsFor(stack, [good]), good), 'Applied');
    const dead = await waitFor('a dead letter per bad record', async () => {
      const mine = await deadLettersOf(`${ns}/`);
      return mine.length >= absurd.length + raw.length + 1 ? mine : undefined;
    });
    const reason = (key: string): string => dead.find((d) => d.key === key)?.headers['kcm-bus.reason'] ?? '';
    assert.match(reason(objectKey({ namespace: ns, name: 'non-json-delete' })), /body: not JSON/);
    assert.match(reason(objectKey({ namespace: ns, name: 'refused-non-json' })), /body: not JSON/);
    assert.match(reason(objectKey({ namespace: ns, name: 'non-json-patch' })), /patch: not JSON/);
    assert.match(reason(objectKey({ namespace: ns, name: 'unknown-verb' })), /verb: "Evict" is not one of/);
    assert.match(reason(objectKey({ namespace: ns, name: 'huge-controller' })), /controller: too long/);
    assert.match(reason(`${ns}/unknown-schema`), /987654/);
    const cut = dead.find((d) => d.key === huge.key);
    assert.ok(
      cut && cut.bytes < 1_000_000 && /value 999900 bytes/.test(cut.headers['kcm-bus.truncated'] ?? ''),
      'a huge dead letter is cut to fit, and says so',
    );
    assert.ok(
      dead.every(
        (d) =>
          d.headers['kcm-bus.consumer'] === 'kcm-bus-writer' &&
          d.headers['kcm-bus.source']?.startsWith('kcm.mutations/'),
      ),
    );
    assert.ok(
      (await metricValue(writer, 'kcm_bus_dead_letters_total', { topic: MUTATION_TOPICS.mutations })) >= dead.length,
    );
    const logged = readFileSync(writer.logFile, 'utf8')
      .split('\n')
      .filter((l) => l.includes('dead-letter topic')).length;
    assert.ok(logged >= 1 && logged < dead.length, `${logged} log lines for ${dead.length} dead letters`);
    assert.equal(writer.process.exitCode, null, 'the writer is still running');
  });

  it('retries a mutation while the registry is down (not ready meanwhile, SIGTERM exits 0 at once), applies it once the registry is back', async () => {
    const registry = registryPart();
    const late = podCreate(ns, 'after-outage', owner);
    const bytes = (await serde.encode(late)).bytes;
    assert.equal(await writer.stop(), 0, 'an idle writer stops with status 0');
    await registry.stop();
    try {
      const cold = await startService('writer', writerArgs, { ready: false });
      await waitFor(
        'the cold writer ready (joined, nothing to retry)',
        async () => (await readyz(cold)).status === 200,
      );
      const key = objectKey(late.target);
      await produceMutations(
        stack,
        [],
        [{ key, value: bytes, headers: signerOf(stack, late.controller).headers(key, bytes) }],
      );
      const notReady = await waitFor('/readyz 503 while the mutation is retried', async () => {
        const r = await readyz(cold);
        return r.status === 503 ? r : undefined;
      });
      assert.match(notReady.body, /retrying a record after a transient fault/);
      const stopping = Date.now();
      assert.equal(await cold.stop(), 0, 'SIGTERM during retries exits 0');
      assert.ok(Date.now() - stopping < 10_000, `stopped in ${Date.now() - stopping} ms`);
      writer = await startService('writer', writerArgs, { ready: false });
      await waitFor(
        'the next writer meets the abandoned (uncommitted) mutation',
        async () => (await readyz(writer)).status === 503,
      );
    } finally {
      await registry.start();
    }
    const results = await resultsFor(stack, [late]);
    assert.deepEqual(
      results.get(late.id)?.map((r) => r.outcome),
      ['Applied'],
      'applied once, after the registry came back',
    );
    await waitFor('/readyz 200 again', async () => (await readyz(writer)).status === 200);
    assert.deepEqual(await deadLettersOf(objectKey(late.target)), [], 'a transient fault is never dead-lettered');
  });

  it('a create the apiserver keeps answering 500 (a webhook down) holds only its own target: a create sent while it is retried is applied at once', async (t) => {
    const slow = `${ns}-slow`;
    await kube('POST', '/api/v1/namespaces', { metadata: { name: slow, labels: { 'kcm-bus-test': 'webhook-down' } } });
    const slowOwner = await ownerRc(kube, slow);
    const webhooks = '/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations';
    const webhook = uniqueName('down');
    await kube('POST', webhooks, {
      metadata: { name: webhook },
      webhooks: [
        {
          name: 'down.kcm-bus.test',
          admissionReviewVersions: ['v1'],
          sideEffects: 'None',
          failurePolicy: 'Fail',
          timeoutSeconds: 1,
          clientConfig: { url: 'https://127.0.0.1:1/validate' },
          namespaceSelector: { matchLabels: { 'kcm-bus-test': 'webhook-down' } },
          rules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['pods'] }],
        },
      ],
    });
    t.after(() => kube('DELETE', `${webhooks}/${webhook}`).catch(() => undefined));
    const failed500 = (): Promise<number> =>
      metricValue(writer, 'rest_client_requests_total', { method: 'POST', code: '500' });
    const before = await failed500();
    const stuck = podCreate(slow, 'stuck', slowOwner);
    await produceMutations(stack, [stuck]);
    await waitFor('the stuck create answered 500 and being retried', async () => (await failed500()) > before);
    const next = podCreate(ns, 'not-held', owner);
    const sent = Date.now();
    await produceMutations(stack, [next]);
    const results = await resultsFor(stack, [next]);
    const tookMs = Date.now() - sent;
    assert.equal(outcomeOf(results, next), 'Applied');
    // The stuck create is retried 10 times over about a minute (DEFAULT_RETRY_POLICY): the other one must not wait for it.
    assert.ok(tookMs < 15_000, `applied ${tookMs} ms after it was sent, while the stuck create was retried`);
    assert.equal(
      (await readTopic(stack, MUTATION_TOPICS.results)).filter(
        (r) => (r.value as { mutationId?: string } | null)?.mutationId === stuck.id,
      ).length,
      0,
      'the stuck create was still being retried',
    );
  });
});
