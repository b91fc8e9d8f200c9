import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { PodTemplateSpec } from '@kcm-bus/k8s/core-v1.ts';
import { computeHash, equalIgnoreHash, generateReplicaSetName, POD_TEMPLATE_HASH } from './hash.ts';

const template = (o: object): PodTemplateSpec => o as PodTemplateSpec;
const TEMPLATE = template({
  metadata: { labels: { foo: 'bar' } },
  spec: { containers: [{ name: 'c', image: 'foo/bar' }] },
});

describe('computeHash (our controller.ComputeHash)', () => {
  it('given a fixed template, then its hash is a fixed string (fnv32a of its canonical JSON, SafeEncodeString of the sum)', () => {
    assert.equal(computeHash(TEMPLATE, undefined), '6b8d97b496');
  });

  it('given a collisionCount, then the hash changes with it, and 0 differs from none (upstream hashes the pointer when set)', () => {
    assert.equal(computeHash(TEMPLATE, 0), '8978c9f9b');
    assert.equal(computeHash(TEMPLATE, 1), '646457d7df');
    assert.equal(computeHash(TEMPLATE, null), computeHash(TEMPLATE, undefined));
  });

  it('given the same template with keys in another order, nulls, empty lists and empty maps, then the hash is the same', () => {
    const reordered = template({
      spec: { volumes: [], nodeSelector: {}, hostname: null, containers: [{ image: 'foo/bar', name: 'c', env: [] }] },
      metadata: { annotations: {}, labels: { foo: 'bar' } },
    });
    assert.equal(computeHash(reordered, undefined), computeHash(TEMPLATE, undefined));
  });

  it('given another image, or containers in another order, then the hash differs', () => {
    const other = template({ ...TEMPLATE, spec: { containers: [{ name: 'c', image: 'foo/baz' }] } });
    const two = (a: string, b: string): PodTemplateSpec =>
      template({ spec: { containers: [{ name: a }, { name: b }] } });
    assert.notEqual(computeHash(other, undefined), computeHash(TEMPLATE, undefined));
    assert.notEqual(computeHash(two('a', 'b'), undefined), computeHash(two('b', 'a'), undefined));
  });

  it('TestPodTemplateSpecHash: given 1000 templates that differ by one field, then no two hashes collide, each in the safe alphabet', () => {
    const seen = new Map<string, number>();
    for (let i = 0; i < 1000; i++) {
      const hash = computeHash(template({ ...TEMPLATE, metadata: { labels: { version: String(i) } } }), undefined);
      assert.equal(seen.get(hash), undefined, `hash collision of ${i} and ${seen.get(hash)}`);
      assert.match(hash, /^[bcdfghjklmnpqrstvwxz2456789]+$/);
      seen.set(hash, i);
    }
  });
});

describe('TestEqualIgnoreHash', () => {
  const spec = (name: string, node: string, annotations: object, labels: object): PodTemplateSpec =>
    template({ metadata: { name, annotations, labels }, spec: { nodeName: node } });
  const h = POD_TEMPLATE_HASH;
  const cases: [string, PodTemplateSpec, PodTemplateSpec, boolean][] = [
    [
      'Same spec, same labels',
      spec('foo', 'foo-node', {}, { [h]: 'value-1', something: 'else' }),
      spec('foo', 'foo-node', {}, { [h]: 'value-1', something: 'else' }),
      true,
    ],
    [
      'Same spec, only pod-template-hash label value is different',
      spec('foo', 'foo-node', {}, { [h]: 'value-1', something: 'else' }),
      spec('foo', 'foo-node', {}, { [h]: 'value-2', something: 'else' }),
      true,
    ],
    [
      "Same spec, the former doesn't have pod-template-hash label",
      spec('foo', 'foo-node', {}, { something: 'else' }),
      spec('foo', 'foo-node', {}, { [h]: 'value-2', something: 'else' }),
      true,
    ],
    [
      "Same spec, the label is different, the former doesn't have pod-template-hash label, same number of labels",
      spec('foo', 'foo-node', {}, { something: 'else' }),
      spec('foo', 'foo-node', {}, { [h]: 'value-2' }),
      false,
    ],
    [
      "Same spec, the label is different, the latter doesn't have pod-template-hash label, same number of labels",
      spec('foo', 'foo-node', {}, { [h]: 'value-1' }),
      spec('foo', 'foo-node', {}, { something: 'else' }),
      false,
    ],
    [
      'Same spec, the label is different, and the pod-template-hash label value is the same',
      spec('foo', 'foo-node', {}, { [h]: 'value-1' }),
      spec('foo', 'foo-node', {}, { [h]: 'value-1', something: 'else' }),
      false,
    ],
    [
      'Different spec, same labels',
      spec('foo', 'foo-node', { former: 'value' }, { [h]: 'value-1', something: 'else' }),
      spec('foo', 'foo-node', { latter: 'value' }, { [h]: 'value-1', something: 'else' }),
      false,
    ],
    [
      'Different spec, different pod-template-hash label value',
      spec('foo-1', 'foo-node', {}, { [h]: 'value-1', something: 'else' }),
      spec('foo-2', 'foo-node', {}, { [h]: 'value-2', something: 'else' }),
      false,
    ],
    [
      "Different spec, the former doesn't have pod-template-hash label",
      spec('foo-1', 'foo-node-1', {}, { something: 'else' }),
      spec('foo-2', 'foo-node-2', {}, { [h]: 'value-2', something: 'else' }),
      false,
    ],
    [
      'Different spec, different labels',
      spec('foo', 'foo-node-1', {}, { something: 'else' }),
      spec('foo', 'foo-node-2', {}, { nothing: 'else' }),
      false,
    ],
  ];
  for (const [name, former, latter, expected] of cases) {
    it(`given "${name}", then equalIgnoreHash is ${expected} in both orders, and neither template is changed`, () => {
      const copies = JSON.stringify([former, latter]);
      assert.equal(equalIgnoreHash(former, latter), expected);
      assert.equal(equalIgnoreHash(latter, former), expected);
      assert.equal(JSON.stringify([former, latter]), copies);
    });
  }

  it('given templates alike but for absent, null or empty fields, then they are equal (Semantic.DeepEqual: nil and empty alike)', () => {
    const a = template({ metadata: { labels: { foo: 'bar' } }, spec: { containers: [{ name: 'c' }] } });
    const b = template({
      metadata: { labels: { foo: 'bar', [h]: 'x' }, annotations: {} },
      spec: { containers: [{ name: 'c', ports: [] }], tolerations: null },
    });
    assert.equal(equalIgnoreHash(a, b), true);
    assert.equal(equalIgnoreHash(undefined, template({ metadata: {} })), true);
  });
});

describe('TestGenerateReplicaSetName', () => {
  const cases = [
    { name: 'short name', deployment: 'my-deployment', hash: 'abcde12345', want: 'my-deployment-abcde12345' },
    {
      name: 'maximum length without truncating',
      deployment: 'a'.repeat(242),
      hash: 'abcde12345',
      want: `${'a'.repeat(242)}-abcde12345`,
    },
    {
      name: 'very long deployment name is truncated',
      deployment: 'b'.repeat(250),
      hash: 'abcde12345',
      want: `${'b'.repeat(242)}-abcde12345`,
    },
    {
      name: 'very long hash is not truncated',
      deployment: 'd'.repeat(252),
      hash: 'h'.repeat(252),
      want: `${'d'.repeat(252)}-${'h'.repeat(252)}`,
    },
  ];
  for (const tc of cases) {
    it(`given ${tc.name}, then the name is <deployment>-<hash> within 253 characters where it can be`, () => {
      assert.equal(generateReplicaSetName(tc.deployment, tc.hash), tc.want);
    });
  }
});
