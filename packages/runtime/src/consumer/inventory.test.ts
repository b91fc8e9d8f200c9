import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Inventory, KeyInventory } from './inventory.ts';

describe('Inventory: a set of keys summed up, to compare two views of one partition', () => {
  it('given the same keys reached in any order, then the header is the same; one key more or less changes it', () => {
    const a = new KeyInventory();
    const b = new KeyInventory();
    for (const k of ['ns/x', 'ns/y', 'ns/z']) a.applied(k);
    for (const k of ['ns/z', 'ns/gone', 'ns/x', 'ns/y']) b.applied(k);
    b.deleted('ns/gone');
    assert.equal(a.inventory.header(), b.inventory.header());
    assert.match(a.inventory.header(), /^3:[0-9a-f]{8}$/);
    b.applied('ns/ghost');
    assert.notEqual(a.inventory.header(), b.inventory.header());
  });

  it('given a key applied twice or deleted when absent, then nothing changes', () => {
    const a = new KeyInventory();
    a.applied('k');
    const once = a.inventory.header();
    a.applied('k');
    a.deleted('other');
    assert.equal(a.inventory.header(), once);
  });

  it('given no keys, then the header is 0 with an empty digest', () => {
    assert.equal(new Inventory().header(), '0:00000000');
  });
});
