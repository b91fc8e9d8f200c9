import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { AvroRecord, AvroType } from '../avro/avro-schema.ts';
import { openApiToAvro } from './openapi-to-avro.ts';
import type { OpenApiDocument, OpenApiSchema } from './openapi.ts';

const ref = (name: string): OpenApiSchema => ({ $ref: `#/components/schemas/${name}` });
const wrapped = (name: string): OpenApiSchema => ({ allOf: [ref(name)], default: {} });
const docOf = (schemas: Record<string, OpenApiSchema>): OpenApiDocument => ({ components: { schemas } });
const obj = (properties: Record<string, OpenApiSchema>): OpenApiSchema => ({ type: 'object', properties });

function typeOfField(record: AvroType, name: string): AvroType {
  assert.ok(typeof record === 'object' && !Array.isArray(record) && 'fields' in record, 'expected a record');
  const field = (record as AvroRecord).fields.find((f) => f.name === name);
  assert.ok(field, `no field ${name}`);
  return field.type;
}

const JSON_STRING = { type: 'string', 'kcmbus.encoding': 'json' };

describe('openApiToAvro', () => {
  test('given scalar properties, every field is ["null", T] with default null and the record is named after the definition', () => {
    const doc = docOf({
      'io.k8s.api.x.v1.Thing': obj({
        name: { type: 'string' },
        count: { type: 'integer', format: 'int32' },
        generation: { type: 'integer', format: 'int64' },
        plain: { type: 'integer' },
        ratio: { type: 'number', format: 'double' },
        ready: { type: 'boolean' },
        phase: { type: 'string', enum: ['Pending', 'Running'] },
        data: { type: 'string', format: 'byte' },
      }),
    });
    const schema = openApiToAvro(doc, 'io.k8s.api.x.v1.Thing');
    assert.deepEqual(schema, {
      type: 'record',
      name: 'Thing',
      namespace: 'io.k8s.api.x.v1',
      fields: [
        { name: 'name', type: ['null', 'string'], default: null },
        { name: 'count', type: ['null', 'int'], default: null },
        { name: 'generation', type: ['null', 'long'], default: null },
        { name: 'plain', type: ['null', 'long'], default: null },
        { name: 'ratio', type: ['null', 'double'], default: null },
        { name: 'ready', type: ['null', 'boolean'], default: null },
        { name: 'phase', type: ['null', 'string'], default: null },
        { name: 'data', type: ['null', 'string'], default: null },
      ],
    });
  });

  test('given a definition used twice ($ref and allOf wrapper), it is defined once then referenced by full name', () => {
    const doc = docOf({
      'io.k8s.api.x.v1.Pair': obj({ first: wrapped('io.k8s.api.x.v1.Half'), second: ref('io.k8s.api.x.v1.Half') }),
      'io.k8s.api.x.v1.Half': obj({ value: { type: 'string' } }),
    });
    const schema = openApiToAvro(doc, 'io.k8s.api.x.v1.Pair');
    const half = {
      type: 'record',
      name: 'Half',
      namespace: 'io.k8s.api.x.v1',
      fields: [{ name: 'value', type: ['null', 'string'], default: null }],
    };
    assert.deepEqual(typeOfField(schema, 'first'), ['null', half]);
    assert.deepEqual(typeOfField(schema, 'second'), ['null', 'io.k8s.api.x.v1.Half']);
  });

  test('given a recursive definition (JSONSchemaProps), the recursion is a by-name reference and terminates', () => {
    const props = 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaProps';
    const doc = docOf({
      [props]: obj({
        items: { type: 'array', items: ref(props) },
        properties: { type: 'object', additionalProperties: ref(props) },
        not: ref(props),
      }),
    });
    const schema = openApiToAvro(doc, props);
    const full = 'io.k8s.apiextensions_apiserver.pkg.apis.apiextensions.v1.JSONSchemaProps';
    assert.equal(`${schema.namespace}.${schema.name}`, full);
    assert.deepEqual(typeOfField(schema, 'items'), ['null', { type: 'array', items: full }]);
    assert.deepEqual(typeOfField(schema, 'properties'), ['null', { type: 'map', values: full }]);
    assert.deepEqual(typeOfField(schema, 'not'), ['null', full]);
  });

  test('given maps and arrays, additionalProperties become Avro maps and arrays Avro arrays of the item type', () => {
    const doc = docOf({
      'io.k8s.apimachinery.pkg.api.resource.Quantity': { oneOf: [{ type: 'string' }, { type: 'number' }] },
      'io.k8s.api.x.v1.Res': obj({
        labels: { type: 'object', additionalProperties: { type: 'string' } },
        limits: { type: 'object', additionalProperties: ref('io.k8s.apimachinery.pkg.api.resource.Quantity') },
        ports: { type: 'array', items: { type: 'integer', format: 'int32' } },
        groups: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } },
      }),
    });
    const schema = openApiToAvro(doc, 'io.k8s.api.x.v1.Res');
    assert.deepEqual(typeOfField(schema, 'labels'), ['null', { type: 'map', values: 'string' }]);
    assert.deepEqual(typeOfField(schema, 'limits'), ['null', { type: 'map', values: 'string' }]);
    assert.deepEqual(typeOfField(schema, 'ports'), ['null', { type: 'array', items: 'int' }]);
    assert.deepEqual(typeOfField(schema, 'groups'), [
      'null',
      { type: 'map', values: { type: 'array', items: 'string' } },
    ]);
  });

  test('given int-or-string (intstr.IntOrString or x-kubernetes-int-or-string), the field is ["null","long","string"]', () => {
    const doc = docOf({
      'io.k8s.apimachinery.pkg.util.intstr.IntOrString': {
        format: 'int-or-string',
        oneOf: [{ type: 'integer' }, { type: 'string' }],
      },
      'io.k8s.api.x.v1.Probe': obj({
        port: wrapped('io.k8s.apimachinery.pkg.util.intstr.IntOrString'),
        maxSurge: { 'x-kubernetes-int-or-string': true },
        many: { type: 'array', items: ref('io.k8s.apimachinery.pkg.util.intstr.IntOrString') },
      }),
    });
    const schema = openApiToAvro(doc, 'io.k8s.api.x.v1.Probe');
    assert.deepEqual(typeOfField(schema, 'port'), ['null', 'long', 'string']);
    assert.deepEqual(typeOfField(schema, 'maxSurge'), ['null', 'long', 'string']);
    assert.deepEqual(typeOfField(schema, 'many'), ['null', { type: 'array', items: ['long', 'string'] }]);
  });

  test('given Quantity, Time and MicroTime, they are plain strings so nothing is rounded', () => {
    const doc = docOf({
      'io.k8s.apimachinery.pkg.api.resource.Quantity': { oneOf: [{ type: 'string' }, { type: 'number' }] },
      'io.k8s.apimachinery.pkg.apis.meta.v1.Time': { type: 'string', format: 'date-time' },
      'io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime': { type: 'string', format: 'date-time' },
      'io.k8s.api.x.v1.Lease': obj({
        size: ref('io.k8s.apimachinery.pkg.api.resource.Quantity'),
        created: wrapped('io.k8s.apimachinery.pkg.apis.meta.v1.Time'),
        renewed: ref('io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime'),
      }),
    });
    const schema = openApiToAvro(doc, 'io.k8s.api.x.v1.Lease');
    for (const field of ['size', 'created', 'renewed'])
      assert.deepEqual(typeOfField(schema, field), ['null', 'string'], field);
  });

  test('given free-form objects (RawExtension, FieldsV1, JSON, bare object, oneOf), they are JSON strings', () => {
    const doc = docOf({
      'io.k8s.apimachinery.pkg.runtime.RawExtension': { type: 'object' },
      'io.k8s.apimachinery.pkg.apis.meta.v1.FieldsV1': { type: 'object' },
      'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSON': { description: 'any JSON' },
      'io.k8s.api.x.v1.Free': obj({
        raw: ref('io.k8s.apimachinery.pkg.runtime.RawExtension'),
        fields: ref('io.k8s.apimachinery.pkg.apis.meta.v1.FieldsV1'),
        json: ref('io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSON'),
        bare: { type: 'object' },
        either: { oneOf: [{ type: 'boolean' }, { type: 'object' }] },
        anything: { type: 'object', additionalProperties: true },
      }),
    });
    const schema = openApiToAvro(doc, 'io.k8s.api.x.v1.Free');
    for (const field of ['raw', 'fields', 'json', 'bare', 'either'])
      assert.deepEqual(typeOfField(schema, field), ['null', JSON_STRING], field);
    assert.deepEqual(typeOfField(schema, 'anything'), ['null', { type: 'map', values: JSON_STRING }]);
  });

  test('given property names Avro refuses, the field is sanitised and keeps its JSON name in kcmbus.jsonName', () => {
    const doc = docOf({
      'io.k8s.api.x.v1.Props': obj({
        $ref: { type: 'string' },
        'x-kubernetes-list-type': { type: 'string' },
        x_kubernetes_list_type: { type: 'string' },
      }),
    });
    const schema = openApiToAvro(doc, 'io.k8s.api.x.v1.Props');
    assert.deepEqual(schema.fields, [
      { name: '_ref', type: ['null', 'string'], default: null, 'kcmbus.jsonName': '$ref' },
      {
        name: 'x_kubernetes_list_type_',
        type: ['null', 'string'],
        default: null,
        'kcmbus.jsonName': 'x-kubernetes-list-type',
      },
      { name: 'x_kubernetes_list_type', type: ['null', 'string'], default: null },
    ]);
  });

  test('given an inline object property, it becomes a record named after its parent and field', () => {
    const doc = docOf({ 'io.k8s.api.x.v1.Outer': obj({ inner: obj({ a: { type: 'boolean' } }) }) });
    const inner = typeOfField(openApiToAvro(doc, 'io.k8s.api.x.v1.Outer'), 'inner');
    assert.deepEqual(inner, [
      'null',
      {
        type: 'record',
        name: 'Outer_inner',
        namespace: 'io.k8s.api.x.v1',
        fields: [{ name: 'a', type: ['null', 'boolean'], default: null }],
      },
    ]);
  });

  test('given docs: true, descriptions are copied to Avro doc', () => {
    const doc = docOf({
      'io.k8s.api.x.v1.D': {
        type: 'object',
        description: 'a thing',
        properties: { n: { type: 'string', description: 'its name' } },
      },
    });
    const schema = openApiToAvro(doc, 'io.k8s.api.x.v1.D', { docs: true });
    assert.equal(schema.doc, 'a thing');
    assert.equal(schema.fields[0]?.doc, 'its name');
  });

  test('given a missing root or a dangling reference, the generator fails loudly', () => {
    const doc = docOf({ 'io.k8s.api.x.v1.A': obj({ b: ref('io.k8s.api.x.v1.Missing') }) });
    assert.throws(() => openApiToAvro(doc, 'io.k8s.api.x.v1.Nope'), /no definition io\.k8s\.api\.x\.v1\.Nope/);
    assert.throws(() => openApiToAvro(doc, 'io.k8s.api.x.v1.A'), /no definition io\.k8s\.api\.x\.v1\.Missing/);
  });

  test('given a definition that contains itself without a record in between, the generator refuses instead of looping', () => {
    const doc = docOf({
      'io.k8s.api.x.v1.A': obj({ list: ref('io.k8s.api.x.v1.List') }),
      'io.k8s.api.x.v1.List': { type: 'array', items: ref('io.k8s.api.x.v1.List') },
    });
    assert.throws(() => openApiToAvro(doc, 'io.k8s.api.x.v1.A'), /List contains itself outside a record/);
  });

  test('given two definitions whose sanitised names collide, the generator refuses instead of merging them', () => {
    const doc = docOf({
      'io.k8s.a-b.v1.T': obj({ other: ref('io.k8s.a_b.v1.T') }),
      'io.k8s.a_b.v1.T': obj({ n: { type: 'string' } }),
    });
    assert.throws(() => openApiToAvro(doc, 'io.k8s.a-b.v1.T'), /both map to the Avro name io\.k8s\.a_b\.v1\.T/);
  });
});
