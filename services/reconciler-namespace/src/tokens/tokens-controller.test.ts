import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Secret, ServiceAccount } from '@kcm-bus/k8s/core-v1.ts';
import { listerOf } from '@kcm-bus/k8s/lister.fixture.ts';
import type { ObjectEvent } from '@kcm-bus/runtime/controller/index.ts';
import { valueDigest } from '@kcm-bus/runtime/signing/index.ts';
import { failedWrite, syncInput as input } from '../namespace.fixture.ts';
import { BY_ACCOUNT, byAccount, tokensControllerSpec } from './tokens-controller.ts';

const NS = 'default';
const digest = valueDigest(Buffer.alloc(32, 7));
const ROOT_CA = Buffer.from('CA Data');
const ACCOUNT: ServiceAccount = { metadata: { name: 'default', namespace: NS, uid: '12345', resourceVersion: '1' } };

/** tokenSecret is upstream's serviceAccountTokenSecret as its topic carries it: these values, as digests. */
function tokenSecret(values: Record<string, string> = { token: 'ABC', 'ca.crt': 'CA Data', namespace: NS }): Secret {
  const digests = Object.fromEntries(Object.entries(values).map(([k, v]) => [k, digest(Buffer.from(v))]));
  return {
    metadata: {
      name: 'token-secret-1',
      namespace: NS,
      uid: '23456',
      resourceVersion: '1',
      annotations: { 'kubernetes.io/service-account.name': 'default', 'kubernetes.io/service-account.uid': '12345' },
    },
    type: 'kubernetes.io/service-account-token',
    dataDigests: digests,
  };
}
const opaque: Secret = { metadata: { name: 'regular-secret-1', namespace: NS, uid: '23456' }, type: 'Opaque' };

type Case = {
  readonly accounts: readonly ServiceAccount[];
  readonly secrets: readonly Secret[];
  readonly event: { readonly input: 'secrets' | 'serviceAccounts'; readonly e: ObjectEvent<never> };
};
const event = (input: Case['event']['input'], type: 'Applied' | 'Deleted', object: Secret | ServiceAccount) => ({
  input,
  e: { type, key: `${NS}/${object.metadata.name}`, object: object as never, old: undefined, live: true },
});

/** run feeds one event and syncs what it enqueued: each mutation as `verb name` (PopulateToken names no value). */
function run(c: Case): string[] {
  const listers = {
    serviceAccounts: listerOf(c.accounts),
    secrets: listerOf(c.secrets, { [BY_ACCOUNT]: byAccount }),
  };
  const spec = tokensControllerSpec(listers, digest, ROOT_CA);
  const keys = spec.handlers[c.event.input](c.event.e).enqueue ?? [];
  return keys.flatMap((k) => spec.reconcile(k, input()).mutations.map((m) => `${m.verb} ${m.target.name}`));
}

describe('serviceaccount-token-controller (TestTokenCreation)', () => {
  const secret = tokenSecret();
  const cases: Record<string, Case & { readonly expected: readonly string[] }> = {
    'deleted serviceaccount with token secrets': {
      accounts: [],
      secrets: [secret],
      event: event('serviceAccounts', 'Deleted', ACCOUNT),
      expected: ['Delete token-secret-1'],
    },
    'deleted serviceaccount with non-token secrets': {
      accounts: [],
      secrets: [opaque],
      event: event('serviceAccounts', 'Deleted', ACCOUNT),
      expected: [],
    },
    'added secret without serviceaccount': {
      accounts: [],
      secrets: [secret],
      event: event('secrets', 'Applied', secret),
      expected: ['Delete token-secret-1'],
    },
    'added secret with serviceaccount': {
      accounts: [ACCOUNT],
      secrets: [secret],
      event: event('secrets', 'Applied', secret),
      expected: [],
    },
    'added secret of a recreated serviceaccount (another uid)': {
      accounts: [{ metadata: { ...ACCOUNT.metadata, uid: '99999' } }],
      secrets: [secret],
      event: event('secrets', 'Applied', secret),
      expected: ['Delete token-secret-1'],
    },
  };
  const needing: Record<string, Record<string, string>> = {
    'without token data': { 'ca.crt': 'CA Data', namespace: NS },
    'with empty token data': { token: '', 'ca.crt': 'CA Data', namespace: NS },
    'without ca data': { token: 'ABC', namespace: NS },
    'with mismatched ca data': { token: 'ABC', 'ca.crt': 'mismatched', namespace: NS },
    'without namespace data': { token: 'ABC', 'ca.crt': 'CA Data' },
  };
  for (const [name, values] of Object.entries(needing)) {
    const s = tokenSecret(values);
    cases[`added token secret ${name}`] = {
      accounts: [ACCOUNT],
      secrets: [s],
      event: event('secrets', 'Applied', s),
      expected: ['PopulateToken token-secret-1'],
    };
  }
  const custom = tokenSecret({ token: 'ABC', 'ca.crt': 'CA Data', namespace: 'custom' });
  cases['added token secret with custom namespace data'] = {
    accounts: [ACCOUNT],
    secrets: [custom],
    event: event('secrets', 'Applied', custom),
    expected: [],
  };
  cases['a serviceaccount added after its secret, whose Delete the writer refused'] = {
    accounts: [ACCOUNT],
    secrets: [tokenSecret({ 'ca.crt': 'CA Data' })],
    event: event('serviceAccounts', 'Applied', ACCOUNT),
    expected: ['PopulateToken token-secret-1'],
  };
  const referencing = (...names: string[]): ServiceAccount => ({
    ...ACCOUNT,
    secrets: names.map((name) => ({ name })),
  });
  cases['deleted secret without serviceaccount'] = {
    accounts: [],
    secrets: [],
    event: event('secrets', 'Deleted', secret),
    expected: [],
  };
  cases['deleted secret with serviceaccount with reference'] = {
    accounts: [referencing('token-secret-1')],
    secrets: [],
    event: event('secrets', 'Deleted', secret),
    expected: ['Patch default'],
  };
  cases['deleted secret with serviceaccount without reference'] = {
    accounts: [referencing()],
    secrets: [],
    event: event('secrets', 'Deleted', secret),
    expected: [],
  };
  cases['deleted secret of a recreated serviceaccount (another uid) with reference'] = {
    accounts: [{ ...referencing('token-secret-1'), metadata: { ...ACCOUNT.metadata, uid: '99999' } }],
    secrets: [],
    event: event('secrets', 'Deleted', secret),
    expected: [],
  };
  cases['deleted non-token secret listed by a serviceaccount'] = {
    accounts: [referencing('regular-secret-1')],
    secrets: [],
    event: event('secrets', 'Deleted', opaque),
    expected: [],
  };
  for (const [name, c] of Object.entries(cases)) it(name, () => assert.deepEqual(run(c), c.expected));

  it('given a deleted token secret its account lists twice, then one json patch tests and removes each, highest first', () => {
    const account = referencing('token-secret-1', 'other', 'token-secret-1');
    const spec = tokensControllerSpec(
      { serviceAccounts: listerOf([account]), secrets: listerOf([], { [BY_ACCOUNT]: byAccount }) },
      digest,
      ROOT_CA,
    );
    spec.handlers.secrets(event('secrets', 'Deleted', secret).e);
    const [m] = spec.reconcile(`${NS}/token-secret-1`, input()).mutations;
    assert.deepEqual(
      [m?.verb, m?.target.resource, m?.target.name, m?.patchType, m?.preconditions.uid, JSON.parse(m?.patch ?? '')],
      [
        'Patch',
        'serviceaccounts',
        'default',
        'json',
        '12345',
        [
          { op: 'test', path: '/secrets/2/name', value: 'token-secret-1' },
          { op: 'remove', path: '/secrets/2' },
          { op: 'test', path: '/secrets/0/name', value: 'token-secret-1' },
          { op: 'remove', path: '/secrets/0' },
        ],
      ],
    );
  });

  it('given a deleted token secret, then a change of its account syncs it again until no reference is left', () => {
    const accounts = new Map([[`${NS}/default`, referencing('token-secret-1')]]);
    const serviceAccounts = { ...listerOf([]), get: (key: string) => accounts.get(key) };
    const spec = tokensControllerSpec(
      { serviceAccounts, secrets: listerOf([], { [BY_ACCOUNT]: byAccount }) },
      digest,
      ROOT_CA,
    );
    const key = `${NS}/token-secret-1`;
    spec.handlers.secrets(event('secrets', 'Deleted', secret).e);
    assert.equal(spec.reconcile(key, input()).mutations.length, 1, 'the patch');
    const changed = event('serviceAccounts', 'Applied', referencing('other', 'token-secret-1')).e;
    assert.deepEqual(spec.handlers.serviceAccounts(changed).enqueue, [key], 'a patch refused by its test is retried');
    accounts.set(`${NS}/default`, referencing('other'));
    assert.deepEqual(spec.reconcile(key, input()).mutations, [], 'the reference is gone');
    assert.deepEqual(spec.handlers.serviceAccounts(changed).enqueue, [], 'and the secret forgotten');
  });

  it('given a token secret deleted before the member started (a restored delete), then it is not taken out', () => {
    const spec = tokensControllerSpec(
      { serviceAccounts: listerOf([referencing('token-secret-1')]), secrets: listerOf([]) },
      digest,
      ROOT_CA,
    );
    spec.handlers.secrets({ ...event('secrets', 'Deleted', secret).e, live: false });
    assert.deepEqual(spec.reconcile(`${NS}/token-secret-1`, input()).mutations, []);
  });

  it('given a PopulateToken, then it names the Secret and the version it was decided on, and carries no value', () => {
    const s = tokenSecret({});
    const spec = tokensControllerSpec(
      { serviceAccounts: listerOf([ACCOUNT]), secrets: listerOf([s], { [BY_ACCOUNT]: byAccount }) },
      digest,
      ROOT_CA,
    );
    const [m] = spec.reconcile(`${NS}/token-secret-1`, input()).mutations;
    assert.deepEqual(
      [m?.target.resource, m?.preconditions, m?.body, m?.patch],
      ['secrets', { uid: '23456', resourceVersion: '1' }, null, null],
    );
  });

  it("given a failed write, then the sync errs (retried); a Conflict or the live check's refusal is no error", () => {
    const spec = tokensControllerSpec({ serviceAccounts: listerOf([]), secrets: listerOf([]) }, digest, ROOT_CA);
    const w = {
      controller: 'serviceaccount-token-controller',
      verb: 'Delete' as const,
      kind: 'Secret',
      resource: 'secrets',
      name: 'token-secret-1',
    };
    assert.match(
      spec.reconcile('default/token-secret-1', input([failedWrite(w, 'Failed', 'InternalError')])).error ?? '',
      /Delete/,
    );
    for (const [outcome, reason] of [
      ['Conflict', 'Conflict'],
      ['Refused', 'LiveCheckFailed'],
    ] as const)
      assert.equal(spec.reconcile('default/token-secret-1', input([failedWrite(w, outcome, reason)])).error, undefined);
  });
});
