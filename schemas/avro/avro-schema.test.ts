import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { isValidAvroName } from './avro-schema.ts';

describe('avro schema', () => {
  test('given Kubernetes JSON names, those that are Avro names pass and the others do not', () => {
    assert.equal(isValidAvroName('containerPort'), true);
    assert.equal(isValidAvroName('_ref'), true);
    assert.equal(isValidAvroName('x-kubernetes-list-type'), false);
    assert.equal(isValidAvroName('$ref'), false);
    assert.equal(isValidAvroName('2fa'), false);
  });
});
