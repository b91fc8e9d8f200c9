import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { labelSelectorMatcher } from './label-selector.ts';
import type { LabelSelector } from './apps-v1.ts';

const matches = (selector: LabelSelector | null | undefined, labels: Record<string, string>): boolean | string => {
  const s = labelSelectorMatcher(selector);
  return 'error' in s ? s.error : s.matches(labels);
};

describe('labelSelectorMatcher: metav1.LabelSelectorAsSelector (TestLabelSelectorAsSelector)', () => {
  it('given nil, then nothing matches; given an empty selector, then everything does', () => {
    assert.equal(matches(null, { a: 'b' }), false);
    assert.equal(matches({}, { a: 'b' }), true);
    assert.equal(matches({ matchLabels: {}, matchExpressions: [] }, {}), true);
  });

  it('given matchLabels and each operator, then requirements are ANDed: In, NotIn (also when the key is absent), Exists, DoesNotExist', () => {
    const selector: LabelSelector = {
      matchLabels: { foo: 'bar' },
      matchExpressions: [
        { key: 'baz', operator: 'In', values: ['qux', 'norf'] },
        { key: 'tier', operator: 'NotIn', values: ['db'] },
        { key: 'app', operator: 'Exists' },
        { key: 'canary', operator: 'DoesNotExist' },
      ],
    };
    assert.equal(matches(selector, { foo: 'bar', baz: 'norf', app: '' }), true);
    assert.equal(matches(selector, { foo: 'bar', baz: 'norf', app: 'x', tier: 'web' }), true);
    assert.equal(matches(selector, { foo: 'bar', baz: 'norf', app: 'x', tier: 'db' }), false);
    assert.equal(matches(selector, { foo: 'bar', baz: 'other', app: 'x' }), false);
    assert.equal(matches(selector, { foo: 'bar', baz: 'qux' }), false, 'Exists');
    assert.equal(matches(selector, { foo: 'bar', baz: 'qux', app: 'x', canary: '' }), false, 'DoesNotExist');
    assert.equal(matches(selector, { foo: 'baz', baz: 'qux', app: 'x' }), false, 'matchLabels');
  });

  it('given an unknown operator, values where they must be empty or missing where needed, or a bad key or value, then it is an error', () => {
    assert.equal(
      matches({ matchExpressions: [{ key: 'a', operator: 'Near', values: ['b'] }] }, {}),
      '"Near" is not a valid label selector operator',
    );
    assert.match(
      String(matches({ matchExpressions: [{ key: 'a', operator: 'In', values: [] }] }, {})),
      /values set can't be empty/,
    );
    assert.match(
      String(matches({ matchExpressions: [{ key: 'a', operator: 'NotIn' }] }, {})),
      /values set can't be empty/,
    );
    assert.match(
      String(matches({ matchExpressions: [{ key: 'a', operator: 'Exists', values: ['b'] }] }, {})),
      /must be empty/,
    );
    assert.match(
      String(matches({ matchExpressions: [{ key: 'a', operator: 'DoesNotExist', values: ['b'] }] }, {})),
      /must be empty/,
    );
    assert.match(String(matches({ matchLabels: { 'bad key': 'x' } }, {})), /invalid label key/);
    assert.match(String(matches({ matchLabels: { 'example.com/name': 'x'.repeat(64) } }, {})), /invalid label value/);
    assert.equal(
      matches({ matchLabels: { 'example.com/name': '' } }, { 'example.com/name': '' }),
      true,
      'an empty value is a value',
    );
    assert.match(String(matches({ matchLabels: { 'Bad_Prefix/name': 'x' } }, {})), /bad prefix/);
  });
});
