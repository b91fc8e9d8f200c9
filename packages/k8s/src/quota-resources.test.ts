import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  add,
  contains,
  containsPrefix,
  difference,
  equals,
  formatResourceList,
  intersection,
  isNegative,
  isZero,
  lessThanOrEqual,
  mask,
  max,
  parseResourceList,
  resourceNames,
  subtract,
  subtractWithNonNegativeResult,
  toSet,
  type ResourceList,
} from './quota-resources.ts';

const list = (record: Record<string, string>): ResourceList => {
  const parsed = parseResourceList(record);
  assert.deepEqual(parsed.malformed, []);
  return parsed.list;
};
const text = (l: ResourceList): Record<string, string> => formatResourceList(l);
const sorted = (names: readonly string[]): string[] => [...names].sort();
const cpu = (q: string) => list({ cpu: q });
const cpuMemory = (c: string, m: string) => list({ cpu: c, memory: m });

describe('equals (TestEquals)', () => {
  const cases: readonly [string, ResourceList, ResourceList, boolean][] = [
    ['isEqual', list({}), list({}), true],
    ['isEqualWithKeys', cpuMemory('100m', '1Gi'), cpuMemory('100m', '1Gi'), true],
    ['isNotEqualSameKeys', cpuMemory('200m', '1Gi'), cpuMemory('100m', '1Gi'), false],
    ['isNotEqualDiffKeys', cpuMemory('100m', '1Gi'), list({ cpu: '100m', memory: '1Gi', pods: '1' }), false],
    ['equal values written apart', cpuMemory('0.1', '1024Mi'), cpuMemory('100m', '1Gi'), true],
    ['same size, other names', list({ cpu: '1' }), list({ pods: '1' }), false],
  ];
  for (const [name, a, b, expected] of cases)
    it(`given ${name}, then ${expected}`, () => assert.equal(equals(a, b), expected));
});

describe('lessThanOrEqual (TestLessThanOrEqual)', () => {
  const cases: readonly [string, ResourceList, ResourceList, boolean, string[]][] = [
    ['isEmpty', list({}), list({}), true, []],
    ['isEqual', cpu('100m'), cpu('100m'), true, []],
    ['isLessThan', cpu('100m'), cpu('200m'), true, []],
    ['isGreaterThan', cpu('200m'), cpu('100m'), false, ['cpu']],
    ['a name b lacks is not compared', cpuMemory('200m', '2Gi'), list({ memory: '1Gi' }), false, ['memory']],
  ];
  for (const [name, a, b, expected, out] of cases) {
    it(`given ${name}, then ${expected} [${out}]`, () => assert.deepEqual(lessThanOrEqual(a, b), [expected, out]));
  }
});

describe('max, add, subtract, subtractWithNonNegativeResult (TestMax, TestAdd, TestSubtract)', () => {
  const cases: readonly [string, ResourceList, ResourceList, Record<string, string>[]][] = [
    ['noKeys', list({}), list({}), [{}, {}, {}, {}]],
    ['toEmpty', cpu('100m'), list({}), [{ cpu: '100m' }, { cpu: '100m' }, { cpu: '100m' }, { cpu: '100m' }]],
    ['empty-value', list({}), cpu('100m'), [{ cpu: '100m' }, { cpu: '100m' }, { cpu: '-100m' }, { cpu: '0' }]],
    ['matching', cpu('100m'), cpu('150m'), [{ cpu: '150m' }, { cpu: '250m' }, { cpu: '-50m' }, { cpu: '0' }]],
    ['matching(reverse)', cpu('150m'), cpu('100m'), [{ cpu: '150m' }, { cpu: '250m' }, { cpu: '50m' }, { cpu: '50m' }]],
    ['matching-equal', cpu('100m'), cpu('100m'), [{ cpu: '100m' }, { cpu: '200m' }, { cpu: '0' }, { cpu: '0' }]],
    [
      'formats',
      list({ memory: '1Gi' }),
      list({ memory: '512Mi' }),
      [{ memory: '1Gi' }, { memory: '1536Mi' }, { memory: '512Mi' }, { memory: '512Mi' }],
    ],
  ];
  for (const [name, a, b, [greatest, sum, diff, nonNegative]] of cases) {
    it(`given ${name}, then the max, sum and differences as upstream writes them`, () => {
      assert.deepEqual(text(max(a, b)), greatest);
      assert.deepEqual(text(add(a, b)), sum);
      assert.deepEqual(text(subtract(a, b)), diff);
      assert.deepEqual(text(subtractWithNonNegativeResult(a, b)), nonNegative);
    });
  }
  it("given equal quantities, then max takes b's, as written", () =>
    assert.deepEqual(text(max(cpu('1.500'), cpu('1500m'))), { cpu: '1500m' }));
  it("given a name only b has, then add copies b's quantity with its text as written (DeepCopy keeps the cache)", () =>
    assert.deepEqual(text(add(list({}), list({ cpu: '+1' }))), { cpu: '+1' }));
  it('given a name on both sides, then the sum is canonical and takes the first format', () =>
    assert.deepEqual(text(add(list({ cpu: '+1' }), list({ cpu: '1000m' }))), { cpu: '2' }));
  it('given a negative quantity only a has, then subtractWithNonNegativeResult writes 0', () =>
    assert.deepEqual(text(subtractWithNonNegativeResult(cpu('-1'), list({}))), { cpu: '0' }));
});

describe('mask, resourceNames, contains, containsPrefix (TestResourceNames, TestContains, TestContainsPrefix)', () => {
  it('given names, then mask keeps only those entries', () =>
    assert.deepEqual(text(mask(list({ cpu: '1', memory: '1Gi', pods: '3' }), ['pods', 'cpu', 'x'])), {
      cpu: '1',
      pods: '3',
    }));
  it('given a list, then its names (empty for an empty list)', () => {
    assert.deepEqual(sorted(resourceNames(cpuMemory('100m', '1Gi'))), ['cpu', 'memory']);
    assert.deepEqual(resourceNames(list({})), []);
  });
  it('given memory and cpu, then cpu is contained; given memory only, then not', () => {
    assert.equal(contains(['memory', 'cpu'], 'cpu'), true);
    assert.equal(contains(['memory'], 'cpu'), false);
  });
  it('given the hugepages- prefix, then hugepages-2Mi has it and cpu does not', () => {
    assert.equal(containsPrefix(['hugepages-'], 'hugepages-2Mi'), true);
    assert.equal(containsPrefix(['hugepages-'], 'cpu'), false);
  });
});

describe('isZero, isNegative, toSet (TestIsZero, TestIsNegative)', () => {
  const zeros: readonly [string, ResourceList, boolean][] = [
    ['empty', list({}), true],
    ['zero', list({ cpu: '0', memory: '0' }), true],
    ['zero written otherwise', list({ cpu: '0m', memory: '0Gi' }), true],
    ['non-zero', cpuMemory('200m', '1Gi'), false],
  ];
  for (const [name, a, expected] of zeros)
    it(`given ${name}, then isZero is ${expected}`, () => assert.equal(isZero(a), expected));
  const negatives: readonly [string, ResourceList, string[]][] = [
    ['empty', list({}), []],
    ['some-negative', list({ cpu: '-10', memory: '0' }), ['cpu']],
    ['all-negative', list({ cpu: '-200m', memory: '-1Gi' }), ['cpu', 'memory']],
  ];
  for (const [name, a, expected] of negatives) {
    it(`given ${name}, then the negative names are [${expected}]`, () =>
      assert.deepEqual(sorted(isNegative(a)), expected));
  }
  it('given names with a duplicate, then a set of each once', () =>
    assert.deepEqual(toSet(['a', 'b', 'a']), new Set(['a', 'b'])));
});

describe('intersection and difference (TestIntersection, TestDifference)', () => {
  const [cpu_, memory] = ['cpu', 'memory'];
  const cases: readonly [string, string[], string[], string[], string[]][] = [
    ['empty', [], [], [], []],
    ['equal', [cpu_, memory], [cpu_, memory], [cpu_, memory], []],
    ['a has extra', [cpu_, memory], [cpu_], [cpu_], [memory]],
    ['b has extra', [cpu_], [cpu_, memory], [cpu_], []],
    ['dedupes', [cpu_, cpu_, memory, memory], [cpu_], [cpu_], [memory]],
    ['sorts', [memory, memory, cpu_, cpu_], [memory, memory, cpu_, cpu_], [cpu_, memory], []],
    ['sorts (difference)', [memory, memory, cpu_, cpu_], [], [], [cpu_, memory]],
  ];
  for (const [name, a, b, both, aOnly] of cases) {
    it(`given ${name}, then the intersection [${both}] and the difference [${aOnly}]`, () => {
      assert.deepEqual(intersection(a, b), both);
      assert.deepEqual(difference(a, b), aOnly);
    });
  }
  it("given names past the BMP, then Go's byte order (code points), not UTF-16's", () =>
    assert.deepEqual(difference(['\u{1F600}', '\uFF61'], []), ['\uFF61', '\u{1F600}']));
});

describe('parseResourceList and formatResourceList', () => {
  it('given a malformed quantity, then its name is reported and left out; the rest is read', () => {
    const parsed = parseResourceList({ cpu: '1', memory: 'lots', pods: '' });
    assert.deepEqual([text(parsed.list), parsed.malformed], [{ cpu: '1' }, ['memory', 'pods']]);
  });
  it('given a bare number, then it is read as the API reads it; one too large for the arithmetic, or not a quantity at all, is malformed', () => {
    const parsed = parseResourceList({ pods: 3, cpu: '1e5000', memory: true, storage: null });
    assert.deepEqual([text(parsed.list), parsed.malformed], [{ pods: '3' }, ['cpu', 'memory', 'storage']]);
  });
  it('given names such as constructor and __proto__, then they are plain entries', () => {
    const l = parseResourceList(JSON.parse('{"__proto__": "1", "constructor": "2"}')).list;
    assert.deepEqual(text(add(l, list({}))), JSON.parse('{"__proto__": "1", "constructor": "2"}'));
    assert.deepEqual(text(add(list({}), list({ cpu: '1' }))), { cpu: '1' });
  });
});
