import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { flagReader, FlagError, parseFlags } from './flags.ts';
import { KAFKA_SECURITY_FLAGS, kafkaSecurity, type KafkaSecurity, type ReadFile } from './kafka-security.ts';

const FILES: Readonly<Record<string, string>> = {
  '/s/ca.pem': 'CA PEM',
  '/s/client.crt': 'CERT PEM',
  '/s/client.key': 'KEY PEM',
  '/s/password': 'hunter2\n',
  '/s/registry-password': 'reg-secret',
  '/s/empty': '',
};

const read: ReadFile = (path) => {
  const text = FILES[path];
  if (text === undefined) throw new Error(`ENOENT: no such file or directory, open '${path}'`);
  return text;
};

/** secure builds the options from a command line and environment, as a service's main does. */
function secure(argv: readonly string[], env: NodeJS.ProcessEnv = {}, url = 'http://registry:8081'): KafkaSecurity {
  return kafkaSecurity(flagReader(parseFlags(KAFKA_SECURITY_FLAGS, argv, env)), url, env, read);
}

function refused(argv: readonly string[], message: RegExp, env: NodeJS.ProcessEnv = {}, url?: string): void {
  assert.throws(
    () => secure(argv, env, url),
    (err: unknown) => err instanceof FlagError && message.test(err.message),
  );
}

describe('kafkaSecurity: flags → kafkajs ssl and sasl, registry client options', () => {
  it('is plaintext with no auth when no flag is given', () => {
    assert.deepEqual(secure([]), { kafka: {}, registry: {} });
  });

  it('gives SASL_SSL with SCRAM-SHA-512: the CA read from its file, the password from its file without the newline', () => {
    const got = secure([
      '--kafka-tls',
      '--kafka-tls-ca-file',
      '/s/ca.pem',
      '--kafka-sasl-mechanism',
      'SCRAM-SHA-512',
      '--kafka-sasl-username',
      'svc',
      '--kafka-sasl-password-file',
      '/s/password',
    ]);
    assert.deepEqual(got.kafka, {
      ssl: { ca: 'CA PEM', rejectUnauthorized: true },
      sasl: { mechanism: 'scram-sha-512', username: 'svc', password: 'hunter2' },
    });
  });

  it('takes every flag from KCM_BUS_<NAME> and the password from KCM_BUS_KAFKA_SASL_PASSWORD (Confluent Cloud style)', () => {
    const got = secure([], {
      KCM_BUS_KAFKA_TLS: 'true',
      KCM_BUS_KAFKA_SASL_MECHANISM: 'plain',
      KCM_BUS_KAFKA_SASL_USERNAME: 'APIKEY',
      KCM_BUS_KAFKA_SASL_PASSWORD: 'secret',
    });
    assert.deepEqual(got.kafka, {
      ssl: { rejectUnauthorized: true },
      sasl: { mechanism: 'plain', username: 'APIKEY', password: 'secret' },
    });
  });

  it('gives mutual TLS with a client key pair, and skips verification only when asked', () => {
    const got = secure([
      '--kafka-tls',
      '--kafka-tls-cert-file',
      '/s/client.crt',
      '--kafka-tls-key-file',
      '/s/client.key',
      '--kafka-tls-insecure-skip-verify',
    ]);
    assert.deepEqual(got.kafka, { ssl: { cert: 'CERT PEM', key: 'KEY PEM', rejectUnauthorized: false } });
  });

  it('gives the registry basic auth and an https CA', () => {
    const got = secure(
      [
        '--schema-registry-username',
        'reg',
        '--schema-registry-password-file',
        '/s/registry-password',
        '--schema-registry-ca-file',
        '/s/ca.pem',
      ],
      {},
      'https://registry:8081',
    );
    assert.deepEqual(got.registry, { basicAuth: { username: 'reg', password: 'reg-secret' }, ca: 'CA PEM' });
  });
});

describe('kafkaSecurity refuses, naming the flag', () => {
  it('an unknown SASL mechanism', () =>
    refused(
      ['--kafka-sasl-mechanism', 'gssapi', '--kafka-sasl-username', 'u'],
      /--kafka-sasl-mechanism \(KCM_BUS_KAFKA_SASL_MECHANISM\) "gssapi" is not one of plain, scram-sha-256, scram-sha-512/,
    ));
  it('a missing password file', () =>
    refused(
      ['--kafka-sasl-mechanism', 'plain', '--kafka-sasl-username', 'u', '--kafka-sasl-password-file', '/s/nope'],
      /--kafka-sasl-password-file \(KCM_BUS_KAFKA_SASL_PASSWORD_FILE\) cannot read \/s\/nope: ENOENT/,
    ));
  it('no password at all', () =>
    refused(
      ['--kafka-sasl-mechanism', 'plain', '--kafka-sasl-username', 'u'],
      /--kafka-sasl-password-file .* is needed \(or KCM_BUS_KAFKA_SASL_PASSWORD\)/,
    ));
  it('an empty password', () =>
    refused(
      ['--kafka-sasl-mechanism', 'plain', '--kafka-sasl-username', 'u', '--kafka-sasl-password-file', '/s/empty'],
      /\/s\/empty is empty/,
    ));
  it('a password given twice', () =>
    refused(
      ['--kafka-sasl-mechanism', 'plain', '--kafka-sasl-username', 'u', '--kafka-sasl-password-file', '/s/password'],
      /both set/,
      { KCM_BUS_KAFKA_SASL_PASSWORD: 'x' },
    ));
  it('a mechanism without a user', () =>
    refused(
      ['--kafka-sasl-mechanism', 'plain'],
      /--kafka-sasl-username .* is needed with --kafka-sasl-mechanism plain/,
    ));
  it('a user without a mechanism', () =>
    refused(['--kafka-sasl-username', 'u'], /--kafka-sasl-username .* is set but --kafka-sasl-mechanism is not/));
  it('an unreadable CA file', () =>
    refused(
      ['--kafka-tls', '--kafka-tls-ca-file', '/s/missing.pem'],
      /--kafka-tls-ca-file \(KCM_BUS_KAFKA_TLS_CA_FILE\) cannot read \/s\/missing.pem/,
    ));
  it('TLS files without --kafka-tls (it would be plaintext)', () =>
    refused(['--kafka-tls-ca-file', '/s/ca.pem'], /--kafka-tls-ca-file .* is set but --kafka-tls is not/));
  it('a client certificate without its key', () =>
    refused(['--kafka-tls', '--kafka-tls-cert-file', '/s/client.crt'], /--kafka-tls-key-file .* is missing/));
  it('a registry password without a user', () =>
    refused(['--schema-registry-password-file', '/s/registry-password'], /--schema-registry-username .* is needed/));
  it('a registry CA for an http:// registry', () =>
    refused(['--schema-registry-ca-file', '/s/ca.pem'], /--schema-registry-ca-file .* is not https:\/\//));
});
