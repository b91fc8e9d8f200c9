import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { SchemaRegistry } from '@kafkajs/confluent-schema-registry';
import { AvroCodec } from '@kcm-bus/runtime/codec/codec.avro.ts';
import { Serde } from '@kcm-bus/runtime/codec/index.ts';
import { httpSchemaRegistry } from '@kcm-bus/runtime/registry/registry.http.ts';
import { RegistryError } from '@kcm-bus/runtime/registry/index.ts';
import { watchedKind } from '@kcm-bus/schemas/kinds.ts';
import { loadWatchSchema } from '@kcm-bus/schemas/watch-schemas.fs.ts';
import { testStack, uniqueName } from '../support/stack.ts';

type Schema = { fields: { name: string; type: unknown; default?: unknown }[] };

const stack = testStack();
const registry = httpSchemaRegistry(stack.registry);
const codec = (s: object): AvroCodec => new AvroCodec(s);
const pods = loadWatchSchema(watchedKind('pods')) as Schema;
const event = {
  type: 'Applied',
  key: 'ns/web-0',
  resourceVersion: '42',
  observedAt: '2026-11-22T10:00:00.123Z',
  object: {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'web-0', namespace: 'ns', labels: { app: 'web' } },
    spec: { containers: [{ name: 'c', image: 'nginx', resources: { limits: { cpu: '250m' } } }] },
  },
};

describe('the Confluent wire format of kcm-bus topics', () => {
  it('is decoded by a deserializer this project did not write (@kafkajs/confluent-schema-registry)', async () => {
    const topic = uniqueName('it-wire');
    const { bytes } = await new Serde(registry, topic, pods, codec).encode(event);
    assert.equal(bytes[0], 0, 'magic byte 0');
    const decoded = (await new SchemaRegistry({ host: stack.registry }).decode(bytes)) as typeof event;
    assert.equal(decoded.type, 'Applied');
    assert.equal(decoded.key, 'ns/web-0');
    assert.equal(decoded.object.metadata.name, 'web-0');
    assert.equal(decoded.object.spec.containers[0]?.resources.limits.cpu, '250m');
  });

  it('keeps a schema with an added optional field readable both ways (the old reader losing nothing), and the registry refuses an incompatible one', async () => {
    const topic = uniqueName('it-compat');
    const v2 = { ...pods, fields: [...pods.fields, { name: 'traceparent', type: ['null', 'string'], default: null }] };
    const v1Serde = new Serde(registry, topic, pods, codec);
    const old = await v1Serde.encode(event);
    await registry.setCompatibility(`${topic}-value`, 'BACKWARD');
    const v2Serde = new Serde(registry, topic, v2, codec);
    const newer = await v2Serde.encode({ ...event, traceparent: '00-abc-01' });
    assert.deepEqual((await v2Serde.decode(old.bytes)).value, event, 'new reader, old record');
    assert.deepEqual(
      (await v1Serde.decode(newer.bytes)).value,
      { ...event, traceparent: '00-abc-01' },
      'old reader, new record: read as written, nothing lost',
    );
    const broken = { ...pods, fields: pods.fields.map((f) => (f.name === 'key' ? { ...f, type: 'long' } : f)) };
    const refused = await registry.register(`${topic}-value`, broken).catch((e: unknown) => e);
    assert.ok(refused instanceof RegistryError && refused.status === 409, String(refused));
  });
});
