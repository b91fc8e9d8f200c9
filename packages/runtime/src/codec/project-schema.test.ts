import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { AvroRecord, AvroType } from '@kcm-bus/schemas/avro/avro-schema.ts';
import { watchEventSchema } from '@kcm-bus/schemas/avro/watch-event-schema.ts';
import { classifyFault } from '../faults/record-fault.ts';
import { memoryRegistry } from '../registry/registry.fixture.ts';
import { AvroCodec } from './codec.avro.ts';
import { projectSchema, watchEventView } from './project-schema.ts';
import { Serde } from './serde.ts';
import { throughView } from './view.fixture.ts';
import { widgetSchema } from './widget.fixture.ts';

const fieldsOf = (type: AvroType): readonly string[] => (type as AvroRecord).fields.map((f) => f.name);
/** widget is the fixture without its `constructor` field, which avsc's resolver cannot take (the last test). */
const widget: AvroRecord = {
  ...(widgetSchema as AvroRecord),
  fields: (widgetSchema as AvroRecord).fields.filter((f) => f.name !== 'constructor'),
};
const object = {
  name: 'w',
  replicas: 3,
  labels: { app: 'web' },
  $ref: '#/x',
  parts: [{ name: 'p', replicas: 1, parts: [{ name: 'q', port: 80 }] }],
  byZone: { a: { name: 'z' } },
};

describe('projectSchema: a reader schema cut down to the fields a controller reads', () => {
  test('given top-level paths, the record keeps those fields only, in schema order, renamed ones by JSON name', () => {
    assert.deepEqual(fieldsOf(projectSchema(widget, ['replicas', '$ref', 'name'])), ['name', 'replicas', '_ref']);
  });

  test('given a path through a list into a recursive record, the record keeps the fields of every place it is met', async () => {
    const view = projectSchema(widget, ['name', 'parts.replicas']);
    assert.deepEqual(fieldsOf(view), ['name', 'replicas', 'parts']);
    assert.deepEqual(await throughView(widget, view, object), {
      name: 'w',
      replicas: 3,
      parts: [{ name: 'p', replicas: 1, parts: [{ name: 'q' }] }],
    });
  });

  test('given a path that ends on a record, it is kept whole, all the way down', async () => {
    const view = projectSchema(widget, ['parts']);
    assert.deepEqual(await throughView(widget, view, object), {
      name: 'w',
      replicas: 3,
      labels: { app: 'web' },
      $ref: '#/x',
      parts: object.parts,
      byZone: object.byZone,
    });
  });

  test('given a path the schema does not have, or one below a field without fields, it throws naming the path', () => {
    assert.throws(
      () => projectSchema(widget, ['parts.colour']),
      /parts\.colour: io\.kcmbus\.test\.v1\.Widget has no field colour/,
    );
    assert.throws(() => projectSchema(widget, ['name.first']), /name\.first: first is below a field without fields/);
  });

  test('given a watch record, its view keeps the envelope and the named fields, and what the writer lacked still arrives', async () => {
    const event = watchEventSchema(widget, 'Widget');
    const record = {
      type: 'Applied',
      key: 'w',
      resourceVersion: '7',
      observedAt: '2026-11-23T10:00:00Z',
      object: { ...object, surplus: { kept: true } },
    };
    const read = await throughView(event, watchEventView(event, ['labels']), record);
    assert.deepEqual(read, {
      type: 'Applied',
      key: 'w',
      resourceVersion: '7',
      observedAt: '2026-11-23T10:00:00Z',
      object: { labels: { app: 'web' }, surplus: { kept: true } },
    });
  });

  test('given a record with a field named like an Object.prototype member, it throws: avsc could not resolve it', () => {
    assert.throws(
      () => projectSchema(widgetSchema as AvroRecord, ['name']),
      /Widget\.constructor: avsc cannot resolve/,
    );
  });

  test('given bytes that are no record of the schema, or a record of a schema the view cannot resolve, decoding through a view throws (the runtime dead-letters such records)', async () => {
    const registry = memoryRegistry();
    const view = projectSchema(widget, ['name']);
    const reader = new Serde(registry, 't', widget, (s) => new AvroCodec(s), view);
    const good = (await new Serde(registry, 't', widget, (s) => new AvroCodec(s)).encode(object)).bytes;
    const poison = (err: unknown): boolean => classifyFault(err) === 'poison';
    await assert.rejects(
      reader.decode(Buffer.concat([good.subarray(0, 5), Buffer.from([0x02, 0xff, 0xff, 0xff, 0xff, 0x0f])])),
      poison,
    );
    const foreign = {
      type: 'record',
      name: 'Gadget',
      namespace: 'io.kcmbus.test.v1',
      fields: [{ name: 'name', type: 'int' }],
    };
    const bytes = (await new Serde(registry, 't', foreign, (s) => new AvroCodec(s)).encode({ name: 3 })).bytes;
    await assert.rejects(
      reader.decode(bytes),
      (err: unknown) => poison(err) && /cannot be read as io\.kcmbus\.test\.v1\.Widget/.test(String(err)),
    );
  });

  test('given no view, the same bytes read whole (the control for the cases above)', async () => {
    assert.deepEqual(await throughView(widget, undefined, object), object);
  });
});
