import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Interner } from './interner.ts';

/**
 * fresh makes a string equal to s but another heap object, as a decoder does for every record. JavaScript cannot
 * tell two equal strings apart, so these tests observe the table: one entry per distinct value, whatever the copies.
 */
const fresh = (s: string): string => [...s].join('');

describe('Interner', () => {
  it('given equal strings from many records, then the table holds one of them and hands back an equal string', () => {
    const strings = new Interner();
    for (let i = 0; i < 100; i++) assert.equal(strings.intern(fresh('kube-system')), 'kube-system');
    assert.equal(strings.size, 1);
    strings.intern(fresh('default'));
    assert.equal(strings.size, 2);
  });

  it('given undefined, then undefined passes through and nothing is added', () => {
    const strings = new Interner();
    assert.equal(strings.intern(undefined), undefined);
    assert.equal(strings.size, 0);
  });

  it('given more distinct strings than its capacity, then it starts afresh instead of growing', () => {
    const strings = new Interner(3);
    for (const s of ['a', 'b', 'c']) strings.intern(s);
    assert.equal(strings.size, 3);
    assert.equal(strings.intern('d'), 'd');
    assert.equal(strings.size, 1);
  });

  it('given a string map, then its values are interned and its keys and values kept', () => {
    const strings = new Interner();
    const labels = strings.internValues({ app: fresh('web'), tier: 'front' });
    assert.deepEqual(labels, { app: 'web', tier: 'front' });
    strings.internValues({ app: fresh('web'), tier: fresh('front') });
    assert.equal(strings.size, 2);
    assert.equal(strings.internValues(undefined), undefined);
  });
});
