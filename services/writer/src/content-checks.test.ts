import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ContentRule } from '@kcm-bus/runtime/catalog/index.ts';
import { aCreate, aMutation, podTarget } from '@kcm-bus/runtime/mutation/mutation.fixture.ts';
import type { Mutation } from '@kcm-bus/runtime/mutation/index.ts';
import { ruleRefusal } from './content-checks.ts';

const DEPLOYMENT = { apiVersion: 'apps/v1', kind: 'Deployment' } as const;
const SERVICE = { apiVersion: 'v1', kind: 'Service' } as const;
const ref = (kind: { apiVersion: string; kind: string }, name = 'web') => ({
  ...kind,
  name,
  uid: 'u',
  controller: true,
});

/** write is a Create (or Update) of a `kind` in namespace default carrying `metadata`. */
const write = (kind: string, metadata: Record<string, unknown>, verb: Mutation['verb'] = 'Create'): Mutation =>
  aCreate({ verb, target: { ...podTarget, kind, name: '' }, body: JSON.stringify({ kind, metadata }) });
/** patch is a Patch of pod default/web-1 of that type. */
const patch = (patchType: Mutation['patchType'], body: unknown): Mutation =>
  aMutation({ verb: 'Patch', patchType, patch: JSON.stringify(body) });
const refusal = (rule: ContentRule, m: Mutation): string => ruleRefusal(rule, m) ?? '';

describe('ruleRefusal: the checks a content rule is made of', () => {
  it("given namespace, then an object of the mutation's namespace, or none, may go; another is refused naming both", () => {
    assert.equal(ruleRefusal([{ check: 'namespace' }], write('Pod', { namespace: 'default' })), undefined);
    assert.equal(ruleRefusal([{ check: 'namespace' }], write('Pod', { generateName: 'web-' })), undefined);
    assert.equal(
      refusal([{ check: 'namespace' }], write('Pod', { namespace: 'kube-system' })),
      'a pod of namespace "kube-system" in default',
    );
  });

  it("given name (the service account controller's syncNamespace creates ServiceAccount default), then another name is refused", () => {
    const rule: ContentRule = [{ check: 'name', equals: 'default' }];
    assert.equal(ruleRefusal(rule, write('ServiceAccount', { name: 'default' })), undefined);
    assert.equal(refusal(rule, write('ServiceAccount', { name: 'admin' })), 'an account not named "default"');
    assert.equal(refusal(rule, write('ServiceAccount', { generateName: 'default' })), 'an account not named "default"');
  });

  it('given label with a value, then only that value may go', () => {
    const rule: ContentRule = [{ check: 'label', key: 'app.kubernetes.io/managed-by', equals: 'kcm' }];
    assert.equal(ruleRefusal(rule, write('Pod', { labels: { 'app.kubernetes.io/managed-by': 'kcm' } })), undefined);
    for (const labels of [undefined, {}, { 'app.kubernetes.io/managed-by': 'me' }])
      assert.equal(refusal(rule, write('Pod', { labels })), 'a pod not labelled app.kubernetes.io/managed-by=kcm');
  });

  it("given label without a value (a Deployment's ReplicaSet carries pod-template-hash), then any value may go, none is refused", () => {
    const rule: ContentRule = [{ check: 'label', key: 'pod-template-hash' }];
    assert.equal(ruleRefusal(rule, write('ReplicaSet', { labels: { 'pod-template-hash': '5d8f9c' } })), undefined);
    assert.equal(
      refusal(rule, write('ReplicaSet', { labels: { app: 'web' } })),
      'a set not labelled pod-template-hash',
    );
  });

  it('given controllerRef (metav1.GetControllerOf), then one controller reference of the kind may go; none, two or another kind is refused', () => {
    const rule: ContentRule = [{ check: 'controllerRef', kind: DEPLOYMENT }];
    assert.equal(ruleRefusal(rule, write('ReplicaSet', { ownerReferences: [ref(DEPLOYMENT)] })), undefined);
    for (const ownerReferences of [
      undefined,
      [{ ...ref(DEPLOYMENT), controller: false }],
      [ref(DEPLOYMENT), ref(DEPLOYMENT, 'other')],
      [ref(SERVICE)],
      [{ ...ref(DEPLOYMENT), apiVersion: 'extensions/v1beta1' }],
    ])
      assert.equal(
        refusal(rule, write('ReplicaSet', { ownerReferences })),
        'a set whose controller is not one Deployment',
      );
  });

  it('given controllerRef with nameLabel (an EndpointSlice names its Service by kubernetes.io/service-name), then the controller must be the one the label names', () => {
    const rule: ContentRule = [{ check: 'controllerRef', kind: SERVICE, nameLabel: 'kubernetes.io/service-name' }];
    const slice = (name: string | undefined) =>
      write('EndpointSlice', {
        labels: name === undefined ? {} : { 'kubernetes.io/service-name': name },
        ownerReferences: [ref(SERVICE, 'web')],
      });
    assert.equal(ruleRefusal(rule, slice('web')), undefined);
    for (const m of [slice('db'), slice(undefined)])
      assert.equal(
        refusal(rule, m),
        'a slice whose controller is not the one Service its kubernetes.io/service-name label names',
      );
  });

  it("given controllerRef namedByKey (a Deployment's ReplicaSets), then the controller must be the Deployment the mutation's key names", () => {
    const rule: ContentRule = [{ check: 'controllerRef', kind: DEPLOYMENT, namedByKey: true }];
    const rs = (key: string | null, name = 'web') => ({
      ...write('ReplicaSet', { ownerReferences: [ref(DEPLOYMENT, name)] }),
      reconcileKey: key,
    });
    assert.equal(ruleRefusal(rule, rs('default/web')), undefined);
    for (const m of [rs('default/web', 'db'), rs('default/db'), rs(null)])
      assert.equal(refusal(rule, m), 'a set whose controller is not the Deployment its key names');
  });

  it("given keyObject (a controller's status write), then the target must be the object the mutation's key names", () => {
    const rule: ContentRule = [{ check: 'keyObject' }];
    const status = (key: string | null) => aMutation({ verb: 'UpdateStatus', reconcileKey: key });
    assert.equal(ruleRefusal(rule, status('default/web-1')), undefined);
    assert.equal(refusal(rule, status('default/web-2')), 'a pod its key (default/web-2) does not name');
    assert.equal(refusal(rule, status('other/web-1')), 'a pod its key (other/web-1) does not name');
    assert.equal(refusal(rule, status(null)), 'a pod its key (none) does not name');
  });

  it("given ownerReferences, then a json patch may add, replace or remove references of the kind under metadata.ownerReferences (AdoptPod, ReleasePod), and nothing else's", () => {
    const rule: ContentRule = [{ check: 'ownerReferences', kind: DEPLOYMENT }];
    const ops = (...o: unknown[]) => patch('json', o);
    assert.equal(
      ruleRefusal(rule, ops({ op: 'add', path: '/metadata/ownerReferences', value: [ref(DEPLOYMENT)] })),
      undefined,
    );
    assert.equal(
      ruleRefusal(rule, ops({ op: 'replace', path: '/metadata/ownerReferences/0', value: ref(DEPLOYMENT) })),
      undefined,
    );
    assert.equal(ruleRefusal(rule, ops({ op: 'remove', path: '/metadata/ownerReferences/1' })), undefined);
    assert.equal(
      refusal(rule, ops({ op: 'add', path: '/metadata/ownerReferences/-', value: ref(SERVICE) })),
      'an owner reference that is not a Deployment',
    );
    assert.equal(refusal(rule, patch('json', { op: 'add' })), 'a json patch that is not a list of operations');
  });

  it("given ownerReferences namedByKey, then an adoption's reference must name the key's object", () => {
    const rule: ContentRule = [{ check: 'ownerReferences', kind: DEPLOYMENT, namedByKey: true }];
    const adopt = (name: string) => ({
      ...patch('json', [{ op: 'add', path: '/metadata/ownerReferences', value: [ref(DEPLOYMENT, name)] }]),
      reconcileKey: 'default/web',
    });
    assert.equal(ruleRefusal(rule, adopt('web')), undefined);
    assert.equal(refusal(rule, adopt('db')), 'an owner reference to another Deployment than its key names');
  });

  it("given ownerReferences, then a merge patch or a body writes only its own metadata.ownerReferences' kind (ControllerRefManager's strategic merge adoption)", () => {
    const rule: ContentRule = [{ check: 'ownerReferences', kind: DEPLOYMENT }];
    const adopt = (r: unknown) => patch('strategic-merge', { metadata: { ownerReferences: [r], uid: 'rs-uid' } });
    assert.equal(ruleRefusal(rule, adopt(ref(DEPLOYMENT))), undefined);
    assert.equal(refusal(rule, adopt(ref(SERVICE))), 'an owner reference that is not a Deployment');
    assert.equal(
      refusal(
        rule,
        write('ReplicaSet', { ownerReferences: [ref(DEPLOYMENT), { ...ref(SERVICE), controller: false }] }),
      ),
      'an owner reference that is not a Deployment',
    );
  });

  it('given conditionTypes, then a patch may write conditions of those types only; another type or none is refused', () => {
    const rule: ContentRule = [{ check: 'conditionTypes', types: ['DisruptionTarget'] }];
    const conditions = (...c: unknown[]) => patch('strategic-merge', { status: { conditions: c } });
    assert.equal(ruleRefusal(rule, conditions({ type: 'DisruptionTarget', status: 'True' })), undefined);
    assert.equal(ruleRefusal(rule, patch('merge', { status: { phase: 'Failed' } })), undefined, 'no conditions');
    assert.equal(
      refusal(rule, conditions({ type: 'DisruptionTarget' }, { type: 'Ready', status: 'False' })),
      'a pod condition of type "Ready"',
    );
    assert.equal(refusal(rule, conditions({ status: 'True' })), 'a pod condition without a type');
  });

  it('given patchType, then a patch of another type, or a mutation without one, is refused naming both', () => {
    const rule: ContentRule = [{ check: 'patchType', types: ['strategic-merge', 'merge'] }];
    assert.equal(ruleRefusal(rule, patch('merge', {})), undefined);
    assert.equal(refusal(rule, patch('json', [])), 'a json patch, not strategic-merge or merge');
    assert.equal(refusal(rule, write('Pod', {})), 'a missing patch, not strategic-merge or merge');
  });
});

describe('ruleRefusal: patchFields, the fields a patch may write (PatchShape)', () => {
  const taints: ContentRule = [
    {
      check: 'patchFields',
      fields: { metadata: { labels: { 'beta.kubernetes.io/os': true } }, spec: { taints: true } },
    },
  ];
  const allowed = 'outside /metadata/labels/beta.kubernetes.io~1os, /spec/taints';

  it('given a merge patch within the shape (PatchNodeTaints, reconcileNodeLabels), then it may go; a field outside is refused as a JSON pointer', () => {
    assert.equal(ruleRefusal(taints, patch('strategic-merge', { spec: { taints: [] } })), undefined);
    assert.equal(
      ruleRefusal(taints, patch('merge', { metadata: { labels: { 'beta.kubernetes.io/os': 'linux' } } })),
      undefined,
    );
    assert.equal(
      refusal(taints, patch('merge', { metadata: { labels: { 'node-role.kubernetes.io/control-plane': '' } } })),
      `a patch of /metadata/labels/node-role.kubernetes.io~1control-plane, ${allowed}`,
    );
  });

  it('given a merge patch setting a partly allowed field to null, a list or a scalar (which deletes or replaces the rest), then it is refused', () => {
    for (const body of [{ spec: null }, { metadata: { labels: null } }, { spec: [] }, { metadata: 'x' }])
      assert.match(refusal(taints, patch('merge', body)), /^a patch of \/(spec|metadata)/, JSON.stringify(body));
    assert.equal(refusal(taints, patch('merge', [])), 'a patch that is not an object');
  });

  it("given a merge patch key the shape's prototype has (constructor, __proto__), then it is outside the shape", () => {
    assert.equal(refusal(taints, patch('merge', { constructor: 1 })), `a patch of /constructor, ${allowed}`);
    assert.equal(refusal(taints, patch('merge', JSON.parse('{"__proto__": {}}'))), `a patch of /__proto__, ${allowed}`);
  });

  it("given a json patch, then every operation's path must lie at or below an allowed field (RFC 6901 escapes read), not above", () => {
    const ops = (...paths: string[]) =>
      patch(
        'json',
        paths.map((path) => ({ op: 'replace', path, value: 'v' })),
      );
    assert.equal(ruleRefusal(taints, ops('/spec/taints', '/spec/taints/0/effect')), undefined);
    assert.equal(ruleRefusal(taints, ops('/metadata/labels/beta.kubernetes.io~1os')), undefined);
    assert.equal(refusal(taints, ops('/spec')), `a patch of "/spec", ${allowed}`);
    assert.equal(
      refusal(taints, ops('/metadata/labels/beta.kubernetes.io/os')),
      `a patch of "/metadata/labels/beta.kubernetes.io/os", ${allowed}`,
    );
    assert.equal(refusal(taints, ops('')), `a patch of "", ${allowed}`);
    assert.equal(refusal(taints, patch('json', [{ op: 'add' }])), 'a json patch operation without a path');
  });

  it('given several checks, then the first that fails is the refusal', () => {
    const rule: ContentRule = [{ check: 'patchType', types: ['json'] }, ...taints];
    assert.equal(refusal(rule, patch('merge', { spec: { unschedulable: true } })), 'a merge patch, not json');
    assert.equal(
      refusal(rule, patch('json', [{ op: 'add', path: '/spec/unschedulable', value: true }])),
      `a patch of "/spec/unschedulable", ${allowed}`,
    );
  });
});

describe('ruleRefusal: patchOps, the operations a json patch may have', () => {
  const unlink: ContentRule = [{ check: 'patchOps', ops: ['test', 'remove'] }];

  it('given a json patch that tests and removes an account secret reference (removeSecretReference), then it may go', () => {
    const ops = [
      { op: 'test', path: '/secrets/1/name', value: 'builder-token' },
      { op: 'remove', path: '/secrets/1' },
    ];
    assert.equal(ruleRefusal(unlink, patch('json', ops)), undefined);
  });

  it('given an operation not granted, one without a name, or no json patch at all, then it is refused, naming it', () => {
    const add = { op: 'add', path: '/secrets/-', value: { name: 'other' } };
    assert.equal(refusal(unlink, patch('json', [add])), 'a json patch "add" operation, not test or remove');
    assert.equal(
      refusal(unlink, patch('json', [{ path: '/secrets/0' }])),
      'a json patch unnamed operation, not test or remove',
    );
    assert.equal(refusal(unlink, patch('merge', { secrets: [] })), 'a merge patch, not a json patch');
    assert.equal(refusal(unlink, patch('json', {})), 'a json patch that is not a list of operations');
  });
});
