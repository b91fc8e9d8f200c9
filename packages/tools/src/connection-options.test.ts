import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { parseCommandLine } from '@kcm-bus/runtime/service/index.ts';
import { CONNECTION_FLAGS, connectionOf, type Connection } from './connection-options.ts';

const connection = (argv: readonly string[], env: NodeJS.ProcessEnv = {}): Connection =>
  connectionOf(parseCommandLine(CONNECTION_FLAGS, argv, env).flags, env);

describe('connectionOf', () => {
  it("takes the services' TLS and SASL flags, the password from its file", () => {
    const file = join(mkdtempSync(join(tmpdir(), 'kcm-bus-conn-')), 'password');
    writeFileSync(file, 's3cret\n');
    const c = connection([
      '--kafka-brokers',
      'b:9096',
      '--kafka-tls',
      '--kafka-sasl-mechanism',
      'scram-sha-512',
      '--kafka-sasl-username',
      'kcm-bus',
      '--kafka-sasl-password-file',
      file,
    ]);
    assert.deepEqual(
      [c.brokers, c.security.kafka.sasl],
      [['b:9096'], { mechanism: 'scram-sha-512', username: 'kcm-bus', password: 's3cret' }],
    );
    assert.ok(c.security.kafka.ssl);
  });

  it('reads them from the environment too, and refuses a partial setting naming the flag', () => {
    assert.equal(connection([], { KCM_BUS_KAFKA_TLS: 'true' }).security.kafka.ssl !== undefined, true);
    assert.throws(() => connection(['--kafka-sasl-username', 'u']), /--kafka-sasl/);
  });

  it("given nothing, then the local dev stack, as the services' defaults say", () => {
    assert.deepEqual(
      [connection([]).brokers, connection([]).registry],
      [['127.0.0.1:17103'], 'http://127.0.0.1:17105/apis/ccompat/v7'],
    );
  });
});
