import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { describe, it } from 'node:test';
import { CONNECTION_OPTIONS, connectionOf } from './connection-options.ts';

const parsed = (argv: readonly string[]): Record<string, string | boolean | undefined> =>
  parseArgs({ args: [...argv], options: CONNECTION_OPTIONS }).values;

describe('connectionOf', () => {
  it('takes the services\' TLS and SASL flags, the password from its file', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'kcm-bus-conn-')), 'password');
    writeFileSync(file, 's3cret\n');
    const c = connectionOf(parsed(['--kafka-brokers', 'b:9096', '--kafka-tls', '--kafka-sasl-mechanism', 'scram-sha-512',
      '--kafka-sasl-username', 'kcm-bus', '--kafka-sasl-password-file', file]), {});
    assert.deepEqual([c.brokers, c.security.kafka.sasl], [['b:9096'], { mechanism: 'scram-sha-512', username: 'kcm-bus', password: 's3cret' }]);
    assert.ok(c.security.kafka.ssl);
  });

  it('reads them from the environment too, and refuses a partial setting naming the flag', () => {
    assert.equal(connectionOf(parsed([]), { KCM_BUS_KAFKA_TLS: 'true' }).security.kafka.ssl !== undefined, true);
    assert.throws(() => connectionOf(parsed(['--kafka-sasl-username', 'u']), {}), /--kafka-sasl/);
  });
});
