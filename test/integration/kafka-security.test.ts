import { describe, it, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { kafkaBus, type KafkaBusOptions } from '@kcm-bus/runtime/bus/bus.kafka.ts';
import { httpSchemaRegistry } from '@kcm-bus/runtime/registry/registry.http.ts';
import { kafkaSecureFlags } from '@kcm-bus/stack/endpoints.ts';
import type { ServiceName } from '@kcm-bus/stack/kafka-acls.ts';
import { pkiDir } from '@kcm-bus/stack/pki.ts';
import { produceAndConsume } from '../support/kafka.ts';
import { startService, stopAllServices } from '@kcm-bus/harness/processes.ts';
import { serviceBusFlags, testStack, uniqueName } from '../support/stack.ts';

const stack = testStack();
const secure = stack.kafkaSecure;
const ca = readFileSync(secure.caFile, 'utf8');
const password = readFileSync(secure.passwordFile, 'utf8');
const trusted = { ca, rejectUnauthorized: true };

/** REFUSED_WITHIN bounds a refused connection: kafkajs retries connection errors (8 times), never forever. */
const REFUSED_WITHIN_MS = 90_000;

/** refusal is how a secure-listener call with these options fails, and how long it took. */
async function refusal(
  security: Pick<KafkaBusOptions, 'ssl' | 'sasl'>,
): Promise<{ readonly message: string; readonly ms: number }> {
  const started = Date.now();
  const bus = kafkaBus({ brokers: secure.brokers, clientId: 'kcm-bus-test-security', ...security });
  const outcome = await Promise.race([
    bus.partitionCount('kcm.mutations').then(
      () => 'connected',
      (err: unknown) => (err instanceof Error ? `${err.message} ${String(err.cause ?? '')}` : String(err)),
    ),
    new Promise<string>((done) => setTimeout(() => done('still retrying'), REFUSED_WITHIN_MS).unref()),
  ]);
  return { message: outcome, ms: Date.now() - started };
}

describe("a secured Kafka: the stack's SASL_SSL listener", () => {
  const topics: string[] = [];
  after(async () => {
    await stopAllServices();
    await kafkaBus({ brokers: stack.kafkaBrokers, clientId: 'kcm-bus-test-security' }).deleteTopics(topics);
  });

  for (const mechanism of ['scram-sha-512', 'plain'] as const) {
    it(`produces and consumes a record over TLS with SASL ${mechanism}`, async () => {
      const topic = uniqueName(`kcm.test.security-${mechanism}`);
      topics.push(topic);
      const got = await produceAndConsume(secure.bootstrap, topic, ['over-tls', 'and-sasl'], {
        ssl: trusted,
        sasl: { mechanism, username: secure.username, password },
      });
      assert.deepEqual(got, ['over-tls', 'and-sasl']);
    });
  }

  it('refuses a wrong password at once, saying so', async () => {
    const { message, ms } = await refusal({
      ssl: trusted,
      sasl: { mechanism: 'scram-sha-512', username: secure.username, password: `${password}-wrong` },
    });
    assert.match(message, /SASL SCRAM SHA512 authentication failed.*invalid credentials/);
    assert.ok(ms < 30_000, `refused after ${ms} ms`);
  });

  it('fails TLS to a broker whose CA the client does not trust', async () => {
    const { message } = await refusal({
      ssl: { rejectUnauthorized: true },
      sasl: { mechanism: 'scram-sha-512', username: secure.username, password },
    });
    assert.match(message, /unable to verify the first certificate|self-signed certificate/);
  });

  it('serves a service started with the secure flags: the watcher becomes ready (/readyz 200)', async () => {
    const watcher = await startService('watcher', [
      '--kubeconfig',
      stack.kubeconfigs.watcher,
      '--kinds',
      'nodes',
      ...kafkaSecureFlags(stack),
    ]);
    assert.equal((await fetch(watcher.metricsUrl.replace('/metrics', '/readyz'))).status, 200);
    assert.equal(await watcher.stop(), 0);
  });

  it('stops a service whose password file is missing, naming the flag', async () => {
    const flags = kafkaSecureFlags(stack).map((f) =>
      f === secure.passwordFile ? join(dirname(f), 'no-such-file') : f,
    );
    const watcher = await startService(
      'watcher',
      ['--kubeconfig', stack.kubeconfigs.watcher, '--kinds', 'nodes', ...flags],
      { ready: false },
    );
    assert.equal(await watcher.exited, 2);
    assert.match(
      readFileSync(watcher.logFile, 'utf8'),
      /--kafka-sasl-password-file \(KCM_BUS_KAFKA_SASL_PASSWORD_FILE\) cannot read .*no-such-file/,
    );
  });
});

describe("the broker's ACLs: each service is its own principal and may write only its own topics", () => {
  before(async () => {
    // Logged in as themselves, the watcher and the writer create their topics and get ready: the control that the
    // principals and their ACLs work. The refusals below then meet topics that exist.
    await startService('watcher', [
      '--kubeconfig',
      stack.kubeconfigs.watcher,
      '--kinds',
      'pods',
      '--partitions',
      '3',
      ...serviceBusFlags(stack, 'watcher'),
    ]);
    await startService('writer', [
      '--kubeconfig',
      stack.kubeconfigs.writer,
      '--partitions',
      '3',
      ...serviceBusFlags(stack, 'writer'),
    ]);
  });
  after(stopAllServices);

  /** produce sends one record as a service's principal and says how it went: 'written', or the broker's refusal. */
  async function produce(service: ServiceName, topic: string): Promise<string> {
    const bus = kafkaBus({
      brokers: secure.brokers,
      clientId: `kcm-bus-test-as-${service}`,
      ssl: trusted,
      sasl: {
        mechanism: 'scram-sha-512',
        username: service,
        password: readFileSync(secure.servicePasswordFiles[service], 'utf8'),
      },
    });
    const publisher = await bus.publisher();
    try {
      await publisher.send(topic, [{ key: 'forged', value: Buffer.from('forged') }]);
      return 'written';
    } catch (err) {
      return String((err as Error).message);
    } finally {
      await publisher.close();
    }
  }

  it("given a reconciler's principal, then a forged record on the state topic it reads is refused by the broker", async () => {
    assert.match(await produce('reconciler-rc', 'kcm.state.pods'), /[Nn]ot authorized/);
  });

  it("given the writer's principal, then a forged mutation is refused; given the watcher's, then a forged result is", async () => {
    assert.match(await produce('writer', 'kcm.mutations'), /[Nn]ot authorized/);
    assert.match(await produce('watcher', 'kcm.mutation-results'), /[Nn]ot authorized/);
  });
});

describe('the schema registry client over https with basic auth', () => {
  const pki = pkiDir(dirname(process.env['KCM_BUS_TEST_STACK'] ?? ''));
  const seen: (string | undefined)[] = [];
  const server = createServer(
    { cert: readFileSync(join(pki, 'apiserver.crt')), key: readFileSync(join(pki, 'apiserver.key')) },
    (req, res) => {
      seen.push(req.headers.authorization);
      res.writeHead(200, { 'content-type': 'application/vnd.schemaregistry.v1+json' }).end(JSON.stringify({ id: 42 }));
    },
  );
  const listening = new Promise<string>((done) =>
    server.listen(0, '127.0.0.1', () => done(`https://127.0.0.1:${(server.address() as AddressInfo).port}`)),
  );
  after(() => server.close());

  it("trusts the registry's CA and sends the user and password as basic auth", async () => {
    const registry = httpSchemaRegistry(await listening, {
      ca,
      basicAuth: { username: 'reg-user', password: 'reg:secret' },
    });
    assert.equal(await registry.register('kcm.test-value', { type: 'string' }), 42);
    assert.equal(seen.at(-1), `Basic ${Buffer.from('reg-user:reg:secret').toString('base64')}`);
  });

  it('refuses a registry whose CA it was not given', async () => {
    const registry = httpSchemaRegistry(await listening, { basicAuth: { username: 'reg-user', password: 'x' } });
    await assert.rejects(registry.register('kcm.test-value', { type: 'string' }), (err: Error) =>
      /certificate/.test(String(err.cause)),
    );
  });
});
