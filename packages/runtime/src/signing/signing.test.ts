import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { ForgedRecordError, SIGNATURE_HEADER, SIGNER_HEADER, signingWith, UNSIGNED } from './signing.ts';

const pair = (): { privateKey: KeyObject; publicKey: KeyObject } => generateKeyPairSync('ed25519');
const rc = pair();
const writer = pair();
const trusted = new Map([
  ['replicationcontroller-controller', rc.publicKey],
  ['writer', writer.publicKey],
]);
const rcSigning = signingWith({ name: 'replicationcontroller-controller', privateKey: rc.privateKey, trusted });
const writerSigning = signingWith({ name: 'writer', privateKey: writer.privateKey, trusted });
const value = Buffer.from('a mutation');
const forged = (f: () => void, reason: RegExp): void =>
  assert.throws(f, (e: unknown) => e instanceof ForgedRecordError && reason.test(e.message));

describe('signed records', () => {
  it('given a record signed by a controller, then the writer verifies it as that controller', () => {
    const headers = rcSigning.headers('ns/web-abc', value);
    assert.equal(headers[SIGNER_HEADER], 'replicationcontroller-controller');
    writerSigning.verify('replicationcontroller-controller', { key: 'ns/web-abc', value, headers });
  });

  it('given no signature, then it is refused as unsigned', () => {
    forged(
      () => writerSigning.verify('replicationcontroller-controller', { key: 'k', value, headers: {} }),
      /^unsigned/,
    );
  });

  it('given a record signed by another signer than the one it must come from, then it is refused naming both', () => {
    const headers = rcSigning.headers('k', value);
    forged(
      () => rcSigning.verify('writer', { key: 'k', value, headers }),
      /signed by "replicationcontroller-controller", but only writer/,
    );
  });

  it('given a changed value, a changed key or a claimed signer with another key, then the signature is bad', () => {
    const headers = rcSigning.headers('k', value);
    forged(
      () =>
        writerSigning.verify('replicationcontroller-controller', {
          key: 'k',
          value: Buffer.from('a mutatioN'),
          headers,
        }),
      /bad signature/,
    );
    forged(
      () => writerSigning.verify('replicationcontroller-controller', { key: 'k2', value, headers }),
      /bad signature/,
    );
    const intruder = signingWith({ name: 'replicationcontroller-controller', privateKey: pair().privateKey, trusted });
    forged(
      () =>
        writerSigning.verify('replicationcontroller-controller', {
          key: 'k',
          value,
          headers: intruder.headers('k', value),
        }),
      /bad signature/,
    );
  });

  it('given a key and value that concatenate alike, then their signatures differ (the key length is signed)', () => {
    const headers = rcSigning.headers('ab', Buffer.from('c'));
    forged(
      () => writerSigning.verify('replicationcontroller-controller', { key: 'a', value: Buffer.from('bc'), headers }),
      /bad signature/,
    );
  });

  it('given a signer whose public key is not trusted, then it is refused', () => {
    const node = pair();
    const nodeSigning = signingWith({ name: 'node-lifecycle-controller', privateKey: node.privateKey, trusted });
    forged(
      () =>
        writerSigning.verify('node-lifecycle-controller', {
          key: 'k',
          value,
          headers: nodeSigning.headers('k', value),
        }),
      /no trusted public key/,
    );
    assert.equal(nodeSigning.headers('k', value)[SIGNATURE_HEADER]?.length, 88, 'a 64-byte signature in base64');
  });

  it('given a service with only public keys, then it verifies but refuses to sign', () => {
    const verifier = signingWith({ name: 'writer', trusted });
    verifier.verify('replicationcontroller-controller', { key: 'k', value, headers: rcSigning.headers('k', value) });
    assert.throws(() => verifier.headers('k', value), /no private key for writer/);
  });

  it('given no keys (UNSIGNED), then nothing is signed and nothing refused', () => {
    assert.deepEqual(UNSIGNED.headers('k', value), {});
    UNSIGNED.verify('writer', { key: 'k', value, headers: {} });
    assert.equal(UNSIGNED.enabled, false);
  });
});
