import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import avro from 'avsc';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { openApiToAvro } from '@kcm-bus/schemas/generator/openapi-to-avro.ts';
import { openApiDir, realSchema, skipReal } from '@kcm-bus/schemas/generator/real-openapi.fs.ts';
import { watchEventSchema } from '@kcm-bus/schemas/avro/watch-event-schema.ts';
import { WATCHED_KINDS, watchedKind } from '@kcm-bus/schemas/kinds.ts';
import { memoryRegistry } from '../registry/registry.fixture.ts';
import { AvroCodec, avscOptions } from './codec.avro.ts';
import { compileDecoder } from './compile-decoder.ts';
import { compileEncoder } from './compile-encoder.ts';
import { realisticPod } from './realistic-pod.fixture.ts';
import { Serde } from './serde.ts';

type Json = null | boolean | number | string | readonly Json[] | { readonly [key: string]: Json };

/** mulberry32 is a tiny seeded PRNG, so a failing case can be replayed from its seed. */
function mulberry32(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** prune drops each object key and array item with probability p, recursively (a Pod with fewer fields set). */
function prune(value: Json, random: () => number, p: number): Json {
  if (Array.isArray(value)) return value.filter(() => random() >= p).map((item) => prune(item, random, p));
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(() => random() >= p)
      .map(([k, v]) => [k, prune(v, random, p)]),
  );
}

function eventOf(object: Json): Record<string, Json> {
  return {
    type: 'Applied',
    key: 'shop/web-7xk2p',
    resourceVersion: '184467',
    observedAt: '2026-03-01T10:16:00.123Z',
    object,
  };
}

/** roundTrip writes a value with the compiled encoder, has avsc read the bytes (they must be valid Avro), and reads them back. */
function roundTrip(
  type: avro.Type,
  schema: avro.Schema,
  value: unknown,
): { back: unknown; unknownPaths: readonly string[] } {
  const { payload, unknownPaths } = compileEncoder(schema as never).encode(value);
  type.fromBuffer(payload);
  return { back: compileDecoder(schema as never, schema as never).decode(payload), unknownPaths };
}

describe('generated schemas in avsc (real kube-apiserver OpenAPI)', { skip: skipReal }, () => {
  for (const kind of WATCHED_KINDS) {
    test(`given ${kind.kind}, avsc accepts its watch-event schema with unwrapped unions`, () => {
      const type = avro.Type.forSchema(watchEventSchema(realSchema(kind), kind.kind) as never, avscOptions());
      assert.equal(type.name, `io.kcmbus.v1.${kind.kind}WatchEvent`);
    });
  }

  const podSchema = (): avro.Schema => watchEventSchema(realSchema(watchedKind('Pod')), 'Pod') as never;

  test('given a realistic Pod in an Applied event, bytes decode back to the same event and nothing is unknown', () => {
    const schema = podSchema();
    const type = avro.Type.forSchema(schema, avscOptions());
    const event = eventOf(realisticPod as Json);
    const { back, unknownPaths } = roundTrip(type, schema, event);
    assert.deepEqual(unknownPaths, []);
    assert.deepEqual(back, event);
  });

  test('property: for 300 random prunings of the Pod plus unknown fields, decode(encode(x)) is x minus the unknowns, which are reported', () => {
    const schema = podSchema();
    const type = avro.Type.forSchema(schema, avscOptions());
    for (let seed = 1; seed <= 300; seed++) {
      const random = mulberry32(seed);
      const pod = prune(realisticPod as Json, random, 0.3) as Record<string, Json>;
      const withUnknowns = { ...pod, futureField: { a: 1 }, spec: { ...(pod['spec'] as object), futureSpec: [1] } };
      const { back, unknownPaths } = roundTrip(type, schema, eventOf(withUnknowns));
      assert.deepEqual(back, eventOf({ ...pod, spec: pod['spec'] ?? {} }), `seed ${seed}`);
      assert.deepEqual(unknownPaths, ['object.futureField', 'object.spec.futureSpec'], `seed ${seed}`);
    }
  });
});

describe('an RC written with a schema older than the apiserver (real OpenAPI)', { skip: skipReal }, () => {
  /** olderRcSchema is the RC's watch-event schema generated from the real document without PodSpec's `hostUsers`. */
  function olderRcSchema(): object {
    const kind = watchedKind('ReplicationController');
    const doc = JSON.parse(readFileSync(join(openApiDir ?? '', kind.openApiFile), 'utf8')) as {
      components: { schemas: Record<string, { properties: Record<string, unknown> }> };
    };
    const podSpec = doc.components.schemas['io.k8s.api.core.v1.PodSpec'];
    assert.ok(podSpec && 'hostUsers' in podSpec.properties, 'the pinned apiserver has PodSpec.hostUsers');
    delete podSpec.properties['hostUsers'];
    return watchEventSchema(openApiToAvro(doc as never, kind.definition), kind.kind);
  }

  test('given a pod template field the older schema lacks, the RC every reader decodes still has it', async () => {
    const registry = memoryRegistry();
    const template = {
      metadata: { labels: { app: 'web' } },
      spec: { ...(realisticPod as { spec: object }).spec, hostUsers: false },
    };
    const rc = eventOf({
      metadata: { name: 'web', namespace: 'shop' },
      spec: { replicas: 2, selector: { app: 'web' }, template },
    });
    const older = olderRcSchema();
    const newer = watchEventSchema(realSchema(watchedKind('ReplicationController')), 'ReplicationController');
    const { bytes, unknownPaths } = await new Serde(
      registry,
      'kcm.watch.replicationcontrollers',
      older,
      (s) => new AvroCodec(s),
    ).encode(rc);
    assert.deepEqual(unknownPaths, ['object.spec.template.spec.hostUsers']);
    for (const reader of [older, newer]) {
      assert.deepEqual(
        (await new Serde(registry, 'kcm.watch.replicationcontrollers', reader, (s) => new AvroCodec(s)).decode(bytes))
          .value,
        rc,
      );
    }
  });
});
