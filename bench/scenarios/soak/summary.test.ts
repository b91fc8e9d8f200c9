import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { total } from '../../lib/stats.ts';
import { joinsOf, joinsText } from './summary.ts';

describe('joinsOf', () => {
  it("given a slot's processes (a killed one and its replacement), then their joins added up by group", () => {
    const byPid = new Map([
      [101, { 'kcm-bus-reconciler-node': 2, 'kcm-bus-reconciler-node.global': 5 }],
      [202, { 'kcm-bus-reconciler-node': 1, 'kcm-bus-reconciler-node.global': 1 }],
    ]);
    const joins = joinsOf(byPid);
    assert.deepEqual(joins, { 'kcm-bus-reconciler-node': 3, 'kcm-bus-reconciler-node.global': 6 });
    assert.equal(total(joins), 9);
    assert.equal(joinsText(joins), 'kcm-bus-reconciler-node 3, kcm-bus-reconciler-node.global 6');
  });

  it('given no reading, then none', () => {
    assert.deepEqual(joinsOf(undefined), {});
    assert.equal(joinsText({}), 'none');
  });
});
