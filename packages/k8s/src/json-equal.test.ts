import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { jsonEqual } from './json-equal.ts';

describe('jsonEqual (reflect.DeepEqual on JSON values)', () => {
  it('given objects with the same members in another order, then they are equal', () => {
    assert.equal(jsonEqual({ a: 1, b: [1, { c: null }] }, { b: [1, { c: null }], a: 1 }), true);
  });
  it('given arrays in another order, then they differ', () => assert.equal(jsonEqual([1, 2], [2, 1]), false));
  it('given an absent member against null, or an array against an object, then they differ', () => {
    assert.equal(jsonEqual({ a: null }, {}), false);
    assert.equal(jsonEqual([], {}), false);
  });
});
