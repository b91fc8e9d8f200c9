import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { AvroRecord } from './avro-schema.ts';
import { deref, fieldRenames, indexNamedTypes } from './named-types.ts';

const inner: AvroRecord = {
  type: 'record',
  name: 'Inner',
  namespace: 'io.x.v1',
  fields: [{ name: '_ref', type: ['null', 'string'], default: null, 'kcmbus.jsonName': '$ref' }],
};
const outer: AvroRecord = {
  type: 'record',
  name: 'Outer',
  namespace: 'io.x.v1',
  fields: [
    { name: 'first', type: ['null', { type: 'array', items: inner }], default: null },
    { name: 'again', type: ['null', { type: 'map', values: 'io.x.v1.Inner' }], default: null },
    { name: 'self', type: ['null', 'io.x.v1.Outer'], default: null },
  ],
};

describe('named types', () => {
  test('given nested definitions, every record is indexed by full name', () => {
    assert.deepEqual([...indexNamedTypes(outer).keys()], ['io.x.v1.Outer', 'io.x.v1.Inner']);
  });

  test('given a by-name reference, deref returns the definition; primitives pass through', () => {
    const names = indexNamedTypes(outer);
    assert.equal(deref('io.x.v1.Inner', names), inner);
    assert.equal(deref('long', names), 'long');
    assert.throws(() => deref('io.x.v1.Nowhere', names), /never defines/);
  });

  test('given a renamed field, fieldRenames lists the mapping the converters apply', () => {
    assert.deepEqual(fieldRenames(outer), [{ record: 'io.x.v1.Inner', avroName: '_ref', jsonName: '$ref' }]);
  });
});
