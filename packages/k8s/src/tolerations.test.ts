import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Taint, Toleration } from './node-v1.ts';
import { getMatchingTolerations, getMinTolerationTime, toleratesTaint } from './tolerations.ts';

const noSchedule = (key: string, value?: string): Taint => ({
  key,
  effect: 'NoSchedule',
  ...(value === undefined ? {} : { value }),
});

describe('toleratesTaint (k8s.io/api toleration_test.go TestTolerationToleratesTaint)', () => {
  const cases: readonly [string, Toleration, Taint, boolean][] = [
    [
      'same key and effect, Exists, taint without value',
      { key: 'foo', operator: 'Exists', effect: 'NoSchedule' },
      noSchedule('foo'),
      true,
    ],
    [
      'same key and effect, Exists, taint with a value',
      { key: 'foo', operator: 'Exists', effect: 'NoSchedule' },
      noSchedule('foo', 'bar'),
      true,
    ],
    [
      'empty key with Exists matches every taint of the effect',
      { key: '', operator: 'Exists', effect: 'NoSchedule' },
      noSchedule('foo', 'bar'),
      true,
    ],
    [
      'same key, effect and value, Equal',
      { key: 'foo', operator: 'Equal', value: 'bar', effect: 'NoSchedule' },
      noSchedule('foo', 'bar'),
      true,
    ],
    [
      'same key and effect, different values, Equal',
      { key: 'foo', operator: 'Equal', value: 'value1', effect: 'NoSchedule' },
      noSchedule('foo', 'value2'),
      false,
    ],
    [
      'same key and value, different effects',
      { key: 'foo', operator: 'Equal', value: 'bar', effect: 'NoSchedule' },
      { key: 'foo', value: 'bar', effect: 'NoExecute' },
      false,
    ],
    ['absent operator means Equal', { key: 'foo', value: 'bar' }, noSchedule('foo', 'bar'), true],
    [
      'absent effect tolerates every effect',
      { key: 'foo', operator: 'Exists' },
      { key: 'foo', effect: 'NoExecute' },
      true,
    ],
    ['a different key', { key: 'foo', operator: 'Exists' }, noSchedule('bar'), false],
  ];
  for (const [description, toleration, taint, expected] of cases) {
    it(`given ${description}, then tolerated is ${String(expected)}`, () => {
      assert.equal(toleratesTaint(toleration, taint), expected);
    });
  }
  it('given a Gt toleration the taint satisfies, when the comparison-operators gate is off (v1.37 default), then not tolerated', () => {
    const gt = JSON.parse(
      '{"key":"node.kubernetes.io/sla","operator":"Gt","value":"750","effect":"NoSchedule"}',
    ) as Toleration;
    assert.equal(toleratesTaint(gt, noSchedule('node.kubernetes.io/sla', '950')), false);
  });
});

describe('getMatchingTolerations (v1helper.GetMatchingTolerations; component-helpers TestFindMatchingUntoleratedTaint)', () => {
  const existsFoo: Toleration = { key: 'foo', operator: 'Exists', effect: 'NoSchedule' };
  it('given no taints, with or without tolerations, then all tolerated and none used', () => {
    assert.deepEqual(getMatchingTolerations([], []), { allTolerated: true, used: [] });
    assert.deepEqual(getMatchingTolerations([], [existsFoo]), { allTolerated: true, used: [] });
  });
  it("given tolerations matching every taint, then each taint's first matching toleration, in taint order", () => {
    const exists: Toleration = { operator: 'Exists' };
    assert.deepEqual(getMatchingTolerations([noSchedule('foo'), noSchedule('bar')], [existsFoo, exists]), {
      allTolerated: true,
      used: [existsFoo, exists],
    });
  });
  it('given a taint no toleration matches, then not all tolerated and none used', () => {
    assert.deepEqual(getMatchingTolerations([noSchedule('foo'), noSchedule('bar')], [existsFoo]), {
      allTolerated: false,
      used: [],
    });
    assert.deepEqual(getMatchingTolerations([noSchedule('bar')], []), { allTolerated: false, used: [] });
  });
});

describe('getMinTolerationTime (taint_eviction_test.go TestGetMinTolerationTime)', () => {
  const cases: readonly [string, readonly Toleration[], number][] = [
    ['no tolerations', [], 0],
    ['one without tolerationSeconds', [{}], Infinity],
    ['1s and 2s', [{ tolerationSeconds: 1 }, { tolerationSeconds: 2 }], 1000],
    ['1s and unset', [{ tolerationSeconds: 1 }, {}], 1000],
    ['unset and 1s', [{}, { tolerationSeconds: 1 }], 1000],
    ['a zero or negative one among others', [{ tolerationSeconds: 100 }, { tolerationSeconds: -5 }], 0],
  ];
  for (const [description, tolerations, expected] of cases) {
    it(`given ${description}, then ${String(expected)} ms`, () => {
      assert.equal(getMinTolerationTime(tolerations), expected);
    });
  }
});
