import assert from 'node:assert/strict';
import { createPublicKey, generateKeyPairSync, verify } from 'node:crypto';
import { describe, it } from 'node:test';
import { aMutation } from '@kcm-bus/runtime/mutation/mutation.fixture.ts';
import type { Mutation } from '@kcm-bus/runtime/mutation/index.ts';
import { applyMutation } from '../apply-mutation.ts';
import { apiWorld } from '../api-world.fixture.ts';
import { keyIdOf, tokenSigner } from './legacy-token.ts';
import type { TokenKeys } from './populate-token.ts';

const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const KEYS: TokenKeys = { signer: tokenSigner(privateKey), rootCA: Buffer.from('-----BEGIN CERTIFICATE-----\nCA\n') };
const b64 = (s: string | Buffer): string => Buffer.from(s).toString('base64');
const NS = 'team-a';

const secret = (over: { type?: string; data?: Record<string, string>; annotations?: Record<string, string> } = {}) => ({
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: {
    name: 'tok',
    namespace: NS,
    uid: 'secret-uid',
    resourceVersion: '7',
    annotations: over.annotations ?? { 'kubernetes.io/service-account.name': 'builder' },
  },
  type: over.type ?? 'kubernetes.io/service-account-token',
  data: over.data ?? {},
});
const ACCOUNT = { metadata: { name: 'builder', namespace: NS, uid: 'sa-uid' } };

const SECRET_PATH = `/api/v1/namespaces/${NS}/secrets/tok`;
const ACCOUNT_PATH = `/api/v1/namespaces/${NS}/serviceaccounts/builder`;
const command = (verb: Mutation['verb'], rv: string | null = '7'): Mutation =>
  aMutation({
    controller: 'serviceaccount-token-controller',
    verb,
    target: { apiVersion: 'v1', kind: 'Secret', namespace: NS, name: 'tok', resource: 'secrets', subresource: null },
    preconditions: { uid: 'secret-uid', resourceVersion: verb === 'Delete' ? null : rv },
    reconcileKey: `${NS}/tok`,
  });

/** claimsOf checks a token's RS256 signature and kid against the key, and returns its header and claims. */
function claimsOf(token: string): { header: unknown; claims: unknown } {
  const [header = '', claims = '', signature = ''] = token.split('.');
  const signed = verify(
    'sha256',
    Buffer.from(`${header}.${claims}`),
    createPublicKey(privateKey),
    Buffer.from(signature, 'base64url'),
  );
  assert.ok(signed, 'the token is signed with the service-account key');
  const json = (part: string): unknown => JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
  return { header: json(header), claims: json(claims) };
}

describe('PopulateToken (generateTokenIfNeeded at apply time)', () => {
  it("given an empty token Secret of an existing account, then one Update sets ca.crt, namespace and a token with upstream's legacy claims, and the account annotations", async () => {
    const { deps, sent } = apiWorld({ [SECRET_PATH]: secret(), [ACCOUNT_PATH]: ACCOUNT }, KEYS);
    const result = await applyMutation(command('PopulateToken'), deps);
    assert.deepEqual([result.outcome, result.attempts], ['Applied', 3]);
    assert.deepEqual(
      sent.map((r) => `${r.method} ${r.path}`),
      [`GET ${SECRET_PATH}`, `GET ${ACCOUNT_PATH}`, `PUT ${SECRET_PATH}`],
    );
    const body = JSON.parse(sent[2]!.body!) as {
      metadata: { resourceVersion: string; annotations: object };
      data: Record<string, string>;
    };
    assert.equal(body.metadata.resourceVersion, '7');
    assert.deepEqual(body.metadata.annotations, {
      'kubernetes.io/service-account.name': 'builder',
      'kubernetes.io/service-account.uid': 'sa-uid',
    });
    assert.deepEqual([body.data['ca.crt'], body.data['namespace']], [b64(KEYS.rootCA), b64(NS)]);
    assert.deepEqual(claimsOf(Buffer.from(body.data['token']!, 'base64').toString('utf8')), {
      header: { alg: 'RS256', kid: keyIdOf(privateKey) },
      claims: {
        iss: 'kubernetes/serviceaccount',
        'kubernetes.io/serviceaccount/namespace': NS,
        'kubernetes.io/serviceaccount/secret.name': 'tok',
        'kubernetes.io/serviceaccount/service-account.name': 'builder',
        'kubernetes.io/serviceaccount/service-account.uid': 'sa-uid',
        sub: `system:serviceaccount:${NS}:builder`,
      },
    });
    assert.ok(!JSON.stringify(result).includes(body.data['token']!), 'the result never carries the token');
  });

  it('given a Secret holding a token and the namespace but another CA, then only ca.crt is replaced: the token stays', async () => {
    const data = { token: b64('kept'), namespace: b64(NS), 'ca.crt': b64('old') };
    const { deps, sent } = apiWorld({ [SECRET_PATH]: secret({ data }), [ACCOUNT_PATH]: ACCOUNT }, KEYS);
    await applyMutation(command('PopulateToken'), deps);
    const body = JSON.parse(sent[2]!.body!) as { data: Record<string, string> };
    assert.deepEqual(body.data, { ...data, 'ca.crt': b64(KEYS.rootCA) });
  });

  it('given a Secret that needs nothing, changed since the command, or gone, then no write (AlreadyDone, Conflict, AlreadyDone)', async () => {
    const full = { token: b64('t'), namespace: b64(NS), 'ca.crt': b64(KEYS.rootCA) };
    const cases: [object | undefined, string][] = [
      [secret({ data: full }), 'AlreadyDone'],
      [{ ...secret(), metadata: { ...secret().metadata, resourceVersion: '9' } }, 'Conflict'],
      [undefined, 'AlreadyDone'],
    ];
    for (const [live, outcome] of cases) {
      const { deps, sent } = apiWorld(
        { ...(live === undefined ? {} : { [SECRET_PATH]: live }), [ACCOUNT_PATH]: ACCOUNT },
        KEYS,
      );
      assert.equal((await applyMutation(command('PopulateToken'), deps)).outcome, outcome);
      assert.ok(sent.every((r) => r.method === 'GET'));
    }
  });

  it('given a command for an account the API does not have, a Secret of another type, or no key, then it is Refused and nothing is written', async () => {
    const cases: [Record<string, object>, TokenKeys | null, string][] = [
      [{ [SECRET_PATH]: secret() }, KEYS, 'LiveCheckFailed'],
      [
        {
          [SECRET_PATH]: secret({
            annotations: {
              'kubernetes.io/service-account.name': 'builder',
              'kubernetes.io/service-account.uid': 'other',
            },
          }),
          [ACCOUNT_PATH]: ACCOUNT,
        },
        KEYS,
        'LiveCheckFailed',
      ],
      [{ [SECRET_PATH]: secret({ type: 'Opaque' }), [ACCOUNT_PATH]: ACCOUNT }, KEYS, 'LiveCheckFailed'],
      [{ [SECRET_PATH]: secret(), [ACCOUNT_PATH]: ACCOUNT }, null, 'NoServiceAccountKey'],
    ];
    for (const [objects, keys, reason] of cases) {
      const { deps, sent } = apiWorld(objects, keys);
      const result = await applyMutation(command('PopulateToken'), deps);
      assert.deepEqual([result.outcome, result.reason], ['Refused', reason]);
      assert.ok(sent.every((r) => r.method === 'GET'));
    }
  });
});

describe('Delete of a token Secret (live check: its account is gone)', () => {
  it('given the account gone, then the Secret is deleted with its uid as precondition', async () => {
    const { deps, sent } = apiWorld({ [SECRET_PATH]: secret() });
    assert.equal((await applyMutation(command('Delete'), deps)).outcome, 'Applied');
    assert.equal(sent.at(-1)?.method, 'DELETE');
    assert.match(sent.at(-1)?.body ?? '', /"uid":"secret-uid"/);
  });

  it('given the account exists (a forged, replayed or stale command), then it is Refused and nothing is deleted', async () => {
    const { deps, sent } = apiWorld({ [SECRET_PATH]: secret(), [ACCOUNT_PATH]: ACCOUNT });
    const result = await applyMutation(command('Delete'), deps);
    assert.deepEqual([result.outcome, result.reason], ['Refused', 'LiveCheckFailed']);
    assert.ok(sent.every((r) => r.method === 'GET'));
  });

  it('given an Opaque Secret (a command to delete any Secret), then it is Refused', async () => {
    const { deps, sent } = apiWorld({ [SECRET_PATH]: secret({ type: 'Opaque' }) });
    assert.equal((await applyMutation(command('Delete'), deps)).reason, 'LiveCheckFailed');
    assert.equal(sent.length, 1);
  });
});
