import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { avroFieldNames, avroName, avroQualifiedName } from './avro-names.ts';

describe('avro names', () => {
  test('given Kubernetes JSON names that are not Avro names, each other character becomes _', () => {
    assert.equal(avroName('x-kubernetes-list-type'), 'x_kubernetes_list_type');
    assert.equal(avroName('$ref'), '_ref');
    assert.equal(avroName('2fa'), '_2fa');
  });

  test('given names that sanitise onto an existing field, the renamed one is suffixed until unique', () => {
    assert.deepEqual(avroFieldNames(['a-b', 'a_b', 'a.b', 'c']), ['a_b_', 'a_b', 'a_b__', 'c']);
  });

  test('given an OpenAPI definition name, namespace and name are split and each segment sanitised', () => {
    assert.deepEqual(avroQualifiedName('io.k8s.api.core.v1.Pod'), { namespace: 'io.k8s.api.core.v1', name: 'Pod' });
    assert.deepEqual(avroQualifiedName('io.k8s.kube-aggregator.pkg.apis.apiregistration.v1.APIService'), {
      namespace: 'io.k8s.kube_aggregator.pkg.apis.apiregistration.v1',
      name: 'APIService',
    });
  });

  test('given a definition name without a namespace, it is refused', () => {
    assert.throws(() => avroQualifiedName('Pod'), /has no namespace/);
  });
});
