import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { labelsEqual, labelsSuperset, selectorMatches } from './labels.ts';

describe('selectorMatches (an equality-map selector)', () => {
  it('given every selector pair among the labels, then it matches', () =>
    assert.equal(selectorMatches({ foo: 'bar' }, { foo: 'bar', x: 'y' }), true));
  it('given one pair with another value, then it does not', () =>
    assert.equal(selectorMatches({ foo: 'bar' }, { foo: 'baz' }), false));
  it('given an empty or absent selector, then it matches nothing, not everything', () => {
    assert.equal(selectorMatches({}, { foo: 'bar' }), false);
    assert.equal(selectorMatches(undefined, { foo: 'bar' }), false);
  });
});

describe('labelsSuperset', () => {
  it('given an empty want, then any labels carry it (labels.Everything)', () =>
    assert.equal(labelsSuperset({}, undefined), true));
  it('given labels missing one wanted pair, then they do not', () =>
    assert.equal(labelsSuperset({ foo: 'bar', extra: 'x' }, { foo: 'bar' }), false));
});

describe('labelsEqual', () => {
  it('given absent and empty label maps, then they are equal', () => assert.equal(labelsEqual(undefined, {}), true));
  it('given the same pairs in another order, then they are equal', () =>
    assert.equal(labelsEqual({ a: '1', b: '2' }, { b: '2', a: '1' }), true));
  it('given a superset, then they are not equal', () =>
    assert.equal(labelsEqual({ a: '1' }, { a: '1', b: '2' }), false));
});
