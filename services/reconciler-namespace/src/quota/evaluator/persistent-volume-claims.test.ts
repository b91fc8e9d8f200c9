import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { matchingScopes, type ScopeRequirement } from './evaluator.ts';
import { text } from './evaluator.fixture.ts';
import { pvcEvaluator, pvcMatchingResources, pvcUsage } from './persistent-volume-claims.ts';

const vac = (operator: string, ...values: string[]): ScopeRequirement => ({
  scopeName: 'VolumeAttributesClass',
  operator,
  ...(values.length === 0 ? {} : { values }),
});
const [doesNotExist, exists] = [vac('DoesNotExist'), vac('Exists')];

describe('claim scopes (TestPersistentVolumeClaimEvaluatorMatchingScopes)', () => {
  const evaluator = pvcEvaluator(() => []);
  const in1 = vac('In', 'class1');
  const [in2, in3, in4, notIn4] = [
    vac('In', 'class2'),
    vac('In', 'class3'),
    vac('In', 'class4'),
    vac('NotIn', 'class4'),
  ];
  const [in12, in124] = [vac('In', 'class1', 'class2'), vac('In', 'class1', 'class2', 'class4')];
  const [in123, in1234] = [vac('In', 'class1', 'class2', 'class3'), vac('In', 'class1', 'class2', 'class3', 'class4')];
  const spec = { volumeAttributesClassName: 'class1' };
  const cases: readonly [string, object, readonly ScopeRequirement[], readonly ScopeRequirement[]][] = [
    ['EmptyPVC', {}, [doesNotExist, exists, in1, notIn4], [doesNotExist, notIn4]],
    ['VolumeAttributesClass', { spec }, [doesNotExist, exists, in1, in4, notIn4], [exists, in1, notIn4]],
    [
      'VolumeAttributesClassWithTarget',
      { spec, status: { currentVolumeAttributesClassName: 'class2' } },
      [doesNotExist, exists, in1, in2, in12, in124, in4, notIn4],
      [exists, in1, in2, in12, in124, notIn4],
    ],
    [
      'VolumeAttributesClassWithModityStatus',
      {
        spec,
        status: {
          currentVolumeAttributesClassName: 'class2',
          modifyVolumeStatus: { targetVolumeAttributesClassName: 'class3' },
        },
      },
      [doesNotExist, exists, in1, in2, in3, in123, in1234, in4, notIn4],
      [exists, in1, in2, in3, in123, in1234, notIn4],
    ],
  ];
  for (const [name, claim, selectors, want] of cases) {
    it(name, () => assert.deepEqual(matchingScopes(evaluator, claim, selectors), { scopes: want }));
  }
  it('In without values is an error', () => {
    const { error } = matchingScopes(evaluator, {}, [vac('In')]);
    assert.equal(
      error,
      "error on matching scope {VolumeAttributesClass In []}: failed to parse and convert selector: for 'in', 'notin' operators, values set can't be empty",
    );
  });
});

describe('pvcUsage (TestPersistentVolumeClaimEvaluatorUsage)', () => {
  const claim = (storage: string, storageClassName?: string, allocated?: string) => ({
    metadata: { name: 'foo', namespace: 'ns' },
    spec: { resources: { requests: { storage } }, ...(storageClassName === undefined ? {} : { storageClassName }) },
    ...(allocated === undefined ? {} : { status: { allocatedResources: { storage: allocated } } }),
  });
  const counted = { persistentvolumeclaims: '1', 'count/persistentvolumeclaims': '1' };
  const gold = (storage: string) => ({
    'gold.storageclass.storage.k8s.io/requests.storage': storage,
    'gold.storageclass.storage.k8s.io/persistentvolumeclaims': '1',
  });
  const cases: readonly [string, object, Record<string, string>][] = [
    ['pvc-usage', claim('10Gi'), { ...counted, 'requests.storage': '10Gi' }],
    ['pvc-usage-by-class', claim('10Gi', 'gold'), { ...counted, 'requests.storage': '10Gi', ...gold('10Gi') }],
    ['pvc-usage-rounded', claim('1001m'), { ...counted, 'requests.storage': '2' }],
    ['pvc-usage-by-class-rounded', claim('1001m', 'gold'), { ...counted, 'requests.storage': '2', ...gold('2') }],
    ['pvc-usage-higher-allocated-resource', claim('5G', undefined, '10G'), { ...counted, 'requests.storage': '10G' }],
    ['pvc-usage-lower-allocated-resource', claim('10G', undefined, '5G'), { ...counted, 'requests.storage': '10G' }],
    [
      'the beta annotation names the class before spec.storageClassName',
      { ...claim('1Gi', 'gold'), metadata: { annotations: { 'volume.beta.kubernetes.io/storage-class': 'silver' } } },
      {
        ...counted,
        'requests.storage': '1Gi',
        'silver.storageclass.storage.k8s.io/requests.storage': '1Gi',
        'silver.storageclass.storage.k8s.io/persistentvolumeclaims': '1',
      },
    ],
  ];
  for (const [name, pvc, want] of cases) {
    it(name, () => assert.deepEqual(text(pvcUsage(pvc).usage), want));
  }
  it('a malformed storage request is left out and reported', () => {
    const { usage, errors } = pvcUsage(claim('ten'));
    assert.deepEqual(text(usage), counted);
    assert.deepEqual(errors, ['persistentvolumeclaim ns/foo: malformed quantity "storage": "ten"']);
  });
});

describe('claim resources (TestPersistentVolumeClaimEvaluatorMatchingResources)', () => {
  it('supported-resources', () => {
    const items = [
      'count/persistentvolumeclaims',
      'requests.storage',
      'persistentvolumeclaims',
      'gold.storageclass.storage.k8s.io/requests.storage',
      'gold.storageclass.storage.k8s.io/persistentvolumeclaims',
    ];
    assert.deepEqual(pvcMatchingResources(items), items);
  });
  it('unsupported-resources', () => {
    const items = [
      'storage',
      'ephemeral-storage',
      'bronze.storageclass.storage.k8s.io/storage',
      'gold.storage.k8s.io/requests.storage',
    ];
    assert.deepEqual(pvcMatchingResources(items), []);
  });
});
