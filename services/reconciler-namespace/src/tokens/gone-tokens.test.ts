import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Secret } from '@kcm-bus/k8s/core-v1.ts';
import { GoneTokens } from './gone-tokens.ts';

const token = (name: string, account = 'builder', type = 'kubernetes.io/service-account-token'): Secret => ({
  metadata: {
    name,
    namespace: 'ns',
    uid: `uid-${name}`,
    annotations: { 'kubernetes.io/service-account.name': account },
  },
  type,
});

describe('GoneTokens: the accounts of deleted token Secrets, until their reference is gone', () => {
  it("given a deleted token Secret, then its account and uid ('' when it named none) are kept until forgotten", () => {
    const gone = new GoneTokens();
    gone.deleted('ns/a', token('a'));
    assert.deepEqual(gone.of('ns/a'), { account: 'ns/builder', uid: '' });
    assert.deepEqual(gone.keysOf('ns/builder'), ['ns/a']);
    gone.forget('ns/a');
    assert.equal(gone.of('ns/a'), undefined);
  });

  it('given a deleted Secret of another type, or naming no account, then nothing is kept', () => {
    const gone = new GoneTokens();
    gone.deleted('ns/a', token('a', 'builder', 'Opaque'));
    gone.deleted('ns/b', token('b', ''));
    assert.deepEqual([gone.of('ns/a'), gone.of('ns/b')], [undefined, undefined]);
  });

  it('given more than its limit, then the oldest are forgotten first, a Secret deleted again counting as new', () => {
    const gone = new GoneTokens(2);
    gone.deleted('ns/a', token('a'));
    gone.deleted('ns/b', token('b'));
    gone.deleted('ns/a', token('a'));
    gone.deleted('ns/c', token('c'));
    assert.deepEqual(gone.keysOf('ns/builder'), ['ns/a', 'ns/c']);
  });
});
