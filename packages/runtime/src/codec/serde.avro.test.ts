import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { openApiToAvro } from '@kcm-bus/schemas/generator/openapi-to-avro.ts';
import type { OpenApiDocument, OpenApiSchema } from '@kcm-bus/schemas/generator/openapi.ts';
import { watchEventSchema } from '@kcm-bus/schemas/avro/watch-event-schema.ts';
import type { SchemaRegistry } from '../registry/registry.ts';
import { memoryRegistry } from '../registry/registry.fixture.ts';
import { AvroCodec } from './codec.avro.ts';
import { Serde } from './serde.ts';

const ref = (name: string): OpenApiSchema => ({ allOf: [{ $ref: `#/components/schemas/${name}` }] });

/**
 * widgetDocument is a widget's OpenAPI as a newer apiserver serves it, with `port` on the widget and on its parts;
 * the older document, which an older schema was generated from, lacks both.
 */
function widgetDocument(withPort: boolean): OpenApiDocument {
  const port = withPort ? { port: ref('io.k8s.apimachinery.pkg.util.intstr.IntOrString') } : {};
  return {
    components: {
      schemas: {
        'io.k8s.apimachinery.pkg.util.intstr.IntOrString': {
          format: 'int-or-string',
          oneOf: [{ type: 'integer' }, { type: 'string' }],
        },
        'io.kcmbus.test.v1.Part': { type: 'object', properties: { name: { type: 'string' }, ...port } },
        'io.kcmbus.test.v1.Widget': {
          type: 'object',
          properties: {
            name: { type: 'string' },
            ...port,
            parts: { type: 'array', items: ref('io.kcmbus.test.v1.Part') },
          },
        },
      },
    },
  };
}

const widgetSchema = openApiToAvro(widgetDocument(true), 'io.kcmbus.test.v1.Widget');
const newer = watchEventSchema(widgetSchema, 'Widget');
const older = watchEventSchema(openApiToAvro(widgetDocument(false), 'io.kcmbus.test.v1.Widget'), 'Widget');

const event = (object: object): object => ({
  type: 'Applied',
  key: 'w',
  resourceVersion: '7',
  observedAt: '2026-11-23T10:00:00Z',
  object,
});
const serdeOf = (registry: SchemaRegistry, schema: object | undefined): Serde =>
  new Serde(registry, 'kcm.watch.widgets', schema, (s) => new AvroCodec(s));

describe('Serde across a schema upgrade (a field added to the apiserver OpenAPI)', () => {
  const object = { name: 'w', port: 8080, parts: [{ name: 'a' }, { name: 'b', port: 'http', surplus: { x: 1 } }] };

  test('given an older schema than the object, it reports the fields it lacks and every reader still gets them', async () => {
    const registry = memoryRegistry();
    const { bytes, unknownPaths } = await serdeOf(registry, older).encode(event(object));
    assert.deepEqual(unknownPaths, ['object.port', 'object.parts[].port', 'object.parts[].surplus']);
    for (const reader of [older, newer, undefined])
      assert.deepEqual((await serdeOf(registry, reader).decode(bytes)).value, event(object));
  });

  test('given a newer writer schema than the reader, the older reader gets the fields it does not know', async () => {
    const registry = memoryRegistry();
    const { bytes, unknownPaths } = await serdeOf(registry, newer).encode(event(object));
    assert.deepEqual(unknownPaths, ['object.parts[].surplus']);
    assert.deepEqual((await serdeOf(registry, older).decode(bytes)).value, event(object));
  });

  test('given a writer schema the reader cannot resolve, decode throws instead of reading it as written', async () => {
    const registry = memoryRegistry();
    const foreign = {
      type: 'record',
      name: 'WidgetWatchEvent',
      namespace: 'io.kcmbus.v1',
      fields: [{ name: 'type', type: 'int' }],
    };
    const bytes = (await serdeOf(registry, foreign).encode({ type: 3 })).bytes;
    await assert.rejects(serdeOf(registry, newer).decode(bytes), /cannot be read as io\.kcmbus\.v1\.WidgetWatchEvent/);
  });

  test('given a schema without `unknownFields`, what it lacks is reported and not carried', async () => {
    const registry = memoryRegistry();
    const { bytes, unknownPaths } = await serdeOf(registry, widgetSchema).encode({ name: 'w', surplus: 1 });
    assert.deepEqual(unknownPaths, ['surplus']);
    assert.deepEqual((await serdeOf(registry, widgetSchema).decode(bytes)).value, { name: 'w' });
  });
});
