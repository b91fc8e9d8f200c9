import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { type AvroRecord, type AvroType, isUnion, jsonNameOf } from '../avro/avro-schema.ts';
import { deref, indexNamedTypes, type NamedTypes } from '../avro/named-types.ts';
import { WATCHED_KINDS, watchedKind } from '../kinds.ts';
import { realSchema, skipReal } from './real-openapi.fs.ts';

/** typeAt follows a field path (`spec.containers[].ports[]`) through records, arrays ([]) and maps ({}). */
function typeAt(root: AvroRecord, path: string): AvroType {
  const names = indexNamedTypes(root);
  let type: AvroType = root;
  for (const step of path.split('.')) {
    const [, name = '', suffixes = ''] = /^([^[{]*)(.*)$/.exec(step) ?? [];
    const record = bare(type, names);
    assert.ok(typeof record === 'object' && !isUnion(record) && record.type === 'record', `${step}: not a record`);
    const field = record.fields.find((f) => jsonNameOf(f) === name);
    assert.ok(field, `no field ${name} in ${record.name}`);
    type = field.type;
    for (const suffix of suffixes.match(/\[\]|\{\}/g) ?? []) {
      const container = bare(type, names);
      assert.ok(typeof container === 'object' && !isUnion(container));
      type =
        suffix === '[]' && container.type === 'array'
          ? container.items
          : container.type === 'map'
            ? container.values
            : assert.fail(`${step}: no ${suffix}`);
    }
  }
  return bare(type, names);
}

function bare(type: AvroType, names: NamedTypes): AvroType {
  const nonNull = isUnion(type) ? type.filter((b) => b !== 'null') : [type];
  const only = nonNull.length === 1 ? nonNull[0] : undefined;
  return only === undefined ? nonNull : deref(only, names);
}

function countDefinitions(type: unknown): number {
  if (Array.isArray(type)) return type.reduce((n: number, item) => n + countDefinitions(item), 0);
  if (typeof type !== 'object' || type === null) return 0;
  const own = (type as { type?: unknown }).type === 'record' ? 1 : 0;
  return own + Object.values(type).reduce((n: number, value) => n + countDefinitions(value), 0);
}

describe('openApiToAvro over the kube-apiserver OpenAPI v3 documents', { skip: skipReal }, () => {
  for (const kind of WATCHED_KINDS) {
    test(`given ${kind.definition}, each named type is defined once and every field is optional with default null`, () => {
      const schema = realSchema(kind);
      const names = indexNamedTypes(schema);
      assert.equal(countDefinitions(schema), names.size);
      for (const named of names.values()) {
        if (named.type !== 'record') continue;
        for (const field of named.fields) {
          assert.equal(field.default, null, `${named.name}.${field.name}`);
          assert.ok(isUnion(field.type) && field.type[0] === 'null', `${named.name}.${field.name}`);
        }
      }
    });
  }

  test('given Pod, its fields map by the rules (records, int32, maps of Quantity, int-or-string, times, FieldsV1)', () => {
    const pod = realSchema(watchedKind('Pod'));
    assert.equal(typeAt(pod, 'metadata'), indexNamedTypes(pod).get('io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta'));
    assert.equal(typeAt(pod, 'spec.containers[].ports[].containerPort'), 'int');
    assert.equal(typeAt(pod, 'spec.tolerations[].tolerationSeconds'), 'long');
    assert.deepEqual(typeAt(pod, 'spec.containers[].resources.limits'), { type: 'map', values: 'string' });
    assert.deepEqual(typeAt(pod, 'spec.containers[].livenessProbe.httpGet.port'), ['long', 'string']);
    assert.equal(typeAt(pod, 'metadata.creationTimestamp'), 'string');
    assert.equal(typeAt(pod, 'status.conditions[].lastTransitionTime'), 'string');
    assert.deepEqual(typeAt(pod, 'metadata.managedFields[].fieldsV1'), { type: 'string', 'kcmbus.encoding': 'json' });
    assert.equal(typeAt(pod, 'spec.enableServiceLinks'), 'boolean');
  });

  test('given Lease, renewTime (MicroTime) is a string and leaseDurationSeconds an int', () => {
    const lease = realSchema(watchedKind('Lease'));
    assert.equal(typeAt(lease, 'spec.renewTime'), 'string');
    assert.equal(typeAt(lease, 'spec.leaseDurationSeconds'), 'int');
  });
});
