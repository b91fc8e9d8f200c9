import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { Redis } from 'ioredis';
import { testStack, uniqueName } from '../support/stack.ts';
import { waitFor } from '@kcm-bus/harness/wait.ts';
import { produceAndConsume } from '../support/kafka.ts';

describe('the local stack: Kafka (KRaft), the Apicurio schema registry and Redis', () => {
  const stack = testStack();

  it('takes 500 records from an idempotent producer and hands them to a consumer group in order', async () => {
    const values = Array.from({ length: 500 }, (_, i) => `record-${i}`);
    const received = await produceAndConsume(stack.kafkaBootstrap, uniqueName('it-topic'), values);
    assert.deepEqual(received, values);
  });

  it('registers an Avro schema under a subject and serves it back by id', async () => {
    const subject = `${uniqueName('it')}-value`;
    const schema = JSON.stringify({
      type: 'record',
      name: 'Probe',
      namespace: 'io.kcmbus.test',
      fields: [{ name: 'n', type: 'long' }],
    });
    const registered = await fetch(`${stack.registry}/subjects/${subject}/versions`, {
      method: 'POST',
      headers: { 'content-type': 'application/vnd.schemaregistry.v1+json' },
      body: JSON.stringify({ schema }),
    });
    assert.equal(registered.status, 200, await registered.clone().text());
    const { id } = (await registered.json()) as { id: number };
    const fetched = (await (await fetch(`${stack.registry}/schemas/ids/${id}`)).json()) as { schema: string };
    assert.deepEqual(JSON.parse(fetched.schema), JSON.parse(schema));
  });

  describe('Redis', () => {
    const redis = new Redis(stack.redis, { lazyConnect: true, maxRetriesPerRequest: 3 });
    after(() => redis.disconnect());

    it('answers PING and keeps a value', async () => {
      await redis.connect();
      assert.equal(await redis.ping(), 'PONG');
      const key = uniqueName('it');
      await redis.set(key, 'v', 'EX', 60);
      assert.equal(await waitFor('the value', () => redis.get(key)), 'v');
    });
  });
});
