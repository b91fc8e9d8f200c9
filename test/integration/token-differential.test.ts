import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { request } from 'node:https';
import { busFlags, rawKube, testStack, testWriterFlags, uniqueName } from '../support/stack.ts';
import { startService, stopAllServices } from '@kcm-bus/harness/processes.ts';
import { readRaw } from '@kcm-bus/harness/topic.ts';
import { topicsHolding } from '../support/topics-holding.ts';
import { withUpstream } from '@kcm-bus/harness/upstream.ts';
import { waitFor } from '@kcm-bus/harness/wait.ts';
import { kafkaBus } from '@kcm-bus/runtime/bus/bus.kafka.ts';
import { AvroCodec } from '@kcm-bus/runtime/codec/codec.avro.ts';
import { Serde } from '@kcm-bus/runtime/codec/index.ts';
import { httpSchemaRegistry } from '@kcm-bus/runtime/registry/registry.http.ts';
import { watchedKind } from '@kcm-bus/schemas/kinds.ts';
import { EPOCH_HEADER, epochOf } from '@kcm-bus/schemas/watch-record.ts';
import { loadWatchSchema } from '@kcm-bus/schemas/watch-schemas.fs.ts';

const stack = testStack();
const kube = rawKube();
const bus = busFlags(stack);
const TOKEN_TYPE = 'kubernetes.io/service-account-token';

type Secret = {
  readonly metadata: { readonly name: string; readonly uid: string; readonly resourceVersion: string } & Record<
    string,
    unknown
  >;
  readonly data?: Record<string, string>;
};
const text = (b64: string | undefined): string => Buffer.from(b64 ?? '', 'base64').toString('utf8');

/** statusWith is the status of a request made with a bearer token: 403 once the apiserver authenticated it, 401 if not. */
function statusWith(token: string, path: string): Promise<number> {
  const ca = readFileSync(stack.caFile);
  return new Promise((done, fail) => {
    const req = request(`${stack.apiserver}${path}`, { ca, headers: { Authorization: `Bearer ${token}` } }, (res) => {
      res.resume();
      done(res.statusCode ?? 0);
    });
    req.on('error', fail).end();
  });
}

/** tokenParts is a JWT's header and claims, the namespace written as `<ns>` and the uids as what they name. */
function tokenParts(token: string, ns: string, uid: string): unknown {
  const [header = '', claims = ''] = token.split('.');
  const json = (part: string): string => Buffer.from(part, 'base64url').toString('utf8');
  return JSON.parse(`[${json(header)},${json(claims).replaceAll(ns, '<ns>').replaceAll(uid, '<account uid>')}]`);
}

/** Secrets reads a namespace's Secrets. */
function secretsOf(system: string, ns: string) {
  const path = `/api/v1/namespaces/${ns}/secrets`;
  const all = async (): Promise<Secret[]> => (await kube('GET', path))['items'] as Secret[];
  const named = async (name: string): Promise<Secret | undefined> =>
    (await all()).find((s) => s.metadata.name === name);
  return {
    path,
    create: (name: string, account: string, extra: object = {}) =>
      kube('POST', path, {
        metadata: { name, annotations: { 'kubernetes.io/service-account.name': account } },
        type: TOKEN_TYPE,
        ...extra,
      }) as Promise<Secret>,
    filled: (name: string, after: Secret | undefined = undefined) =>
      waitFor(`${system}: ${ns}/${name} filled`, async () => {
        const s = await named(name);
        const later =
          after === undefined || BigInt(s?.metadata.resourceVersion ?? 0) > BigInt(after.metadata.resourceVersion);
        return s?.data?.['token'] && later ? s : undefined;
      }),
    gone: (name: string) =>
      waitFor(`${system}: ${ns}/${name} deleted`, async () => ((await named(name)) === undefined ? true : undefined)),
  };
}

/**
 * unreferenced: a token Secret its account lists in `secrets`, deleted, is taken out of that list, and the account's
 * other reference stays (removeSecretReference). Returns the names the account lists then.
 */
async function unreferenced(system: string, ns: string, secrets: ReturnType<typeof secretsOf>): Promise<string[]> {
  const path = `/api/v1/namespaces/${ns}/serviceaccounts/builder`;
  const names = async (): Promise<string[]> =>
    (((await kube('GET', path))['secrets'] as { name: string }[] | undefined) ?? []).map((r) => r.name);
  await secrets.create('second-token', 'builder');
  await secrets.filled('second-token');
  await kube('PUT', path, { ...(await kube('GET', path)), secrets: [{ name: 'second-token' }, { name: 'unrelated' }] });
  await kube('DELETE', `${secrets.path}/second-token`);
  return waitFor(`${system}: second-token out of builder's secrets`, async () => {
    const listed = await names();
    return listed.includes('second-token') ? undefined : listed;
  });
}

/**
 * script: a token Secret of an account is filled (and authenticates), refilled when its token is taken out, deleted
 * with its account; a token Secret naming no account, or a too long name, is deleted; a token Secret deleted is taken
 * out of its account's `secrets`.
 */
async function script(system: string): Promise<Record<string, unknown>> {
  const ns = uniqueName(`tok-${system}`);
  await kube('POST', '/api/v1/namespaces', { metadata: { name: ns } });
  const account = (await kube('POST', `/api/v1/namespaces/${ns}/serviceaccounts`, {
    metadata: { name: 'builder' },
  })) as Secret;
  const secrets = secretsOf(system, ns);
  await secrets.create('builder-token', 'builder', { stringData: { extra: `extra-${ns}` } });
  const filled = await secrets.filled('builder-token');
  const token = text(filled.data?.['token']);
  const status = await statusWith(token, `/api/v1/namespaces/${ns}/pods`);
  // Read again: the apiserver labelled the Secret when the token was used (kubernetes.io/legacy-token-last-used).
  const used = (await kube('GET', `${secrets.path}/builder-token`)) as Secret;
  const { token: _taken, ...rest } = used.data ?? {};
  const emptied = (await kube('PUT', `${secrets.path}/builder-token`, { ...used, data: rest })) as Secret;
  const refilled = await secrets.filled('builder-token', emptied);
  await secrets.create('ghost-token', 'ghost');
  await secrets.create('long-token', 'a'.repeat(300));
  await Promise.all([secrets.gone('ghost-token'), secrets.gone('long-token')]);
  const references = await unreferenced(system, ns, secrets);
  await kube('DELETE', `/api/v1/namespaces/${ns}/serviceaccounts/builder`);
  await secrets.gone('builder-token');
  return {
    ns,
    token,
    keys: Object.keys(filled.data ?? {}).sort(),
    caIsTheClusters: text(filled.data?.['ca.crt']) === readFileSync(stack.caFile, 'utf8'),
    namespace: text(filled.data?.['namespace']) === ns,
    annotations: JSON.parse(
      JSON.stringify(filled.metadata['annotations']).replace(account.metadata.uid, '<account uid>'),
    ),
    claims: tokenParts(token, ns, account.metadata.uid),
    status,
    refilled: text(refilled.data?.['token']) === token,
    references,
  };
}

/**
 * forgeValue publishes what a forger who may produce to the Secrets' topic would: a token Secret's record carrying a
 * value, in the watcher's current epoch (so it is not refused as a zombie's), encoded with the topic's own schema (the
 * value rides in the residue of fields the schema lacks).
 */
async function forgeValue(ns: string, value: string): Promise<void> {
  const topic = 'kcm.watch.secrets';
  const epoch = (await readRaw(stack, topic)).reduce(
    (max, r) => (epochOf(r.headers) > max ? epochOf(r.headers) : max),
    0n,
  );
  const registry = httpSchemaRegistry(stack.registry);
  const serde = new Serde(registry, topic, loadWatchSchema(watchedKind('secrets')), (s) => new AvroCodec(s));
  const meta = { name: 'forged', namespace: ns, uid: 'forged-uid', resourceVersion: '1' };
  const object = { metadata: meta, type: TOKEN_TYPE, data: { token: Buffer.from(value).toString('base64') } };
  const record = {
    type: 'Applied',
    key: `${ns}/forged`,
    resourceVersion: '1',
    observedAt: new Date().toISOString(),
    object,
  };
  const publisher = await kafkaBus({ brokers: stack.kafkaBrokers, clientId: 'kcm-bus-test-forger' }).publisher();
  const headers = { [EPOCH_HEADER]: String(epoch) };
  await publisher.send(topic, [{ key: `${ns}/forged`, value: (await serde.encode(record)).bytes, headers }]);
  await publisher.close();
}

describe('differential: legacy service-account token Secrets under upstream kube-controller-manager and under kcm-bus', () => {
  after(stopAllServices);

  it('fills, refills, deletes and unlists them alike, the tokens authenticate, and no value is on any topic', async () => {
    const theirs = await withUpstream(
      stack,
      {
        controllers: 'serviceaccount-token-controller',
        flags: ['--service-account-private-key-file', stack.serviceAccountKeyFile, '--root-ca-file', stack.caFile],
      },
      () => script('upstream'),
    );
    await startService('watcher', [...bus, '--kubeconfig', stack.kubeconfigs.watcher, '--partitions', '3']);
    const keys = ['--service-account-private-key-file', stack.serviceAccountKeyFile, '--root-ca-file', stack.caFile];
    await startService('writer', [...testWriterFlags(bus), ...keys]);
    await startService('reconciler-namespace', [...bus, '--root-ca-file', stack.caFile]);
    const { ns, token, ...ours } = await script('kcm-bus');
    const { ns: _ns, token: _token, ...expected } = theirs;
    assert.deepEqual(ours, expected);
    assert.equal(ours['status'], 403, 'the apiserver authenticated the token: forbidden, not unauthenticated');
    const dead = await Promise.all(
      ['kcm.watch.secrets.dlq', 'kcm.state.secrets.dlq'].map((t) => readRaw(stack, t).catch(() => [])),
    );
    assert.deepEqual(
      dead.flat().filter((r) => r.key.startsWith(`${ns as string}/`)),
      [],
      'no record of ours dead-lettered',
    );
    await forgeValue(ns as string, `forged-${ns as string}`);
    await waitFor('the forged record dead-lettered', async () => {
      const letters = await readRaw(stack, 'kcm.watch.secrets.dlq').catch(() => []);
      const forged = letters.find((r) => r.key === `${ns as string}/forged`);
      return forged?.headers['kcm-bus.reason']?.includes('carries values (data)') ? forged : undefined;
    });
    const holding = await topicsHolding(stack, [
      token as string,
      `extra-${ns as string}`,
      `${ns as string}/builder-token`,
    ]);
    assert.ok(holding[`${ns as string}/builder-token`]?.includes('kcm.watch.secrets'), 'the search reads the topics');
    assert.deepEqual([holding[token as string], holding[`extra-${ns as string}`]], [[], []], 'no topic holds a value');
  });
});
