import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { aCreate, aMutation, aRecordEvent } from '@kcm-bus/runtime/mutation/mutation.fixture.ts';
import type { Mutation, MutationTarget } from '@kcm-bus/runtime/mutation/index.ts';
import { contentRefusal } from './content-rules.ts';

const rcRef = {
  apiVersion: 'v1',
  kind: 'ReplicationController',
  name: 'web',
  uid: 'rc-uid',
  controller: true,
  blockOwnerDeletion: true,
};
const createWith = (metadata: Record<string, unknown>): Mutation =>
  aCreate({ body: JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata, spec: { containers: [] } }) });
const patch = (ops: unknown, patchType: Mutation['patchType'] = 'json'): Mutation =>
  aMutation({
    verb: 'Patch',
    patchType,
    patch: JSON.stringify(ops),
    preconditions: { uid: 'pod-uid', resourceVersion: null },
  });

describe('contentRefusal: what a controller may write, beyond verb and resource', () => {
  it('given the RC controller creating a pod of its namespace controlled by one RC (GetPodFromTemplate), then it may', () => {
    assert.equal(contentRefusal(aCreate()), undefined);
    assert.equal(
      contentRefusal(createWith({ generateName: 'web-', ownerReferences: [rcRef] })),
      undefined,
      'the namespace may be left to the target',
    );
  });

  it('given the RC controller creating a pod with no controller, another kind of controller, two, or another RC than the one it syncs, then it is refused naming why', () => {
    for (const ownerReferences of [
      undefined,
      [],
      [{ ...rcRef, name: 'db' }],
      [{ ...rcRef, controller: false }],
      [{ ...rcRef, kind: 'ReplicaSet', apiVersion: 'apps/v1' }],
      [rcRef, { ...rcRef, uid: 'other' }],
    ]) {
      assert.match(
        contentRefusal(createWith({ generateName: 'web-', ownerReferences })) ?? '',
        /replicationcontroller-controller may not Create a pod whose controller is not the ReplicationController its key names/,
      );
    }
  });

  it("given the RC controller creating a pod into another namespace than the target's, then it is refused", () => {
    assert.match(
      contentRefusal(createWith({ generateName: 'web-', namespace: 'kube-system', ownerReferences: [rcRef] })) ?? '',
      /a pod of namespace "kube-system" in default/,
    );
  });

  it('given the RC controller adopting or releasing (json patches of ownerReferences), then it may', () => {
    assert.equal(
      contentRefusal(
        patch([
          { op: 'test', path: '/metadata/ownerReferences', value: null },
          { op: 'add', path: '/metadata/ownerReferences', value: [rcRef] },
        ]),
      ),
      undefined,
    );
    assert.equal(
      contentRefusal(
        patch([
          { op: 'test', path: '/metadata/ownerReferences/0/uid', value: 'u' },
          { op: 'replace', path: '/metadata/ownerReferences/0', value: rcRef },
        ]),
      ),
      undefined,
    );
    assert.equal(
      contentRefusal(
        patch([
          { op: 'test', path: '/metadata/ownerReferences/1/uid', value: 'rc-uid' },
          { op: 'remove', path: '/metadata/ownerReferences/1' },
        ]),
      ),
      undefined,
    );
  });

  it('given the RC controller patching anything else, another owner kind, or not as a json patch, then it is refused', () => {
    assert.match(
      contentRefusal(patch([{ op: 'replace', path: '/spec/containers/0/image', value: 'evil' }])) ?? '',
      /a patch of "\/spec\/containers\/0\/image", outside \/metadata\/ownerReferences/,
    );
    assert.match(
      contentRefusal(patch([{ op: 'add', path: '/metadata/ownerReferences/-', value: { ...rcRef, kind: 'Node' } }])) ??
        '',
      /an owner reference that is not a ReplicationController/,
    );
    assert.match(contentRefusal(patch({ metadata: { labels: { a: 'b' } } }, 'merge')) ?? '', /a merge patch/);
    assert.match(contentRefusal(patch({ op: 'add' })) ?? '', /not a list of operations/);
  });

  it("given the ReplicaSet controller, then its rules are the RC controller's for ReplicaSets: one ReplicaSet controller, ReplicaSet refs only", () => {
    const rsRef = { ...rcRef, apiVersion: 'apps/v1', kind: 'ReplicaSet' };
    const rs = (m: Mutation): Mutation => ({ ...m, controller: 'replicaset-controller' });
    assert.equal(contentRefusal(rs(createWith({ generateName: 'web-', ownerReferences: [rsRef] }))), undefined);
    assert.match(
      contentRefusal(rs(createWith({ generateName: 'web-', ownerReferences: [rcRef] }))) ?? '',
      /replicaset-controller may not Create a pod whose controller is not the ReplicaSet its key names/,
    );
    assert.equal(
      contentRefusal(
        rs(
          patch([
            { op: 'test', path: '/metadata/ownerReferences', value: null },
            { op: 'add', path: '/metadata/ownerReferences', value: [rsRef] },
          ]),
        ),
      ),
      undefined,
    );
    assert.match(
      contentRefusal(rs(patch([{ op: 'add', path: '/metadata/ownerReferences/-', value: rcRef }]))) ?? '',
      /an owner reference that is not a ReplicaSet/,
    );
    const aboutRc = {
      ...aRecordEvent().event!,
      involvedObject: { ...aRecordEvent().event!.involvedObject, kind: 'ReplicationController' },
    };
    assert.match(
      contentRefusal(rs(aRecordEvent(aboutRc))) ?? '',
      /may not record an event about a ReplicationController/,
    );
  });

  it('given an event about a kind its controller does not act on, alone or attached to a write, then it is refused', () => {
    assert.equal(contentRefusal(aRecordEvent()), undefined);
    const aboutNode = {
      ...aRecordEvent().event!,
      involvedObject: { ...aRecordEvent().event!.involvedObject, kind: 'Node' },
    };
    assert.match(contentRefusal(aRecordEvent(aboutNode)) ?? '', /may not record an event about a Node/);
    assert.match(contentRefusal(aCreate({ event: aboutNode })) ?? '', /may not record an event about a Node/);
    assert.equal(contentRefusal(aRecordEvent(aboutNode, { controller: 'node-lifecycle-controller' })), undefined);
  });

  it('given a Delete, or a controller without rules for its verb, then nothing is checked beyond the allowlist', () => {
    assert.equal(contentRefusal(aMutation()), undefined);
    assert.equal(
      contentRefusal(
        aMutation({
          controller: 'endpoints-controller',
          verb: 'Update',
          target: {
            apiVersion: 'v1',
            kind: 'Endpoints',
            namespace: 'default',
            name: 'web',
            resource: 'endpoints',
            subresource: null,
          },
          body: '{}',
        }),
      ),
      undefined,
    );
  });
});

const node: MutationTarget = {
  apiVersion: 'v1',
  kind: 'Node',
  namespace: null,
  name: 'n1',
  resource: 'nodes',
  subresource: null,
};
const podStatus: MutationTarget = {
  apiVersion: 'v1',
  kind: 'Pod',
  namespace: 'default',
  name: 'web-1',
  resource: 'pods',
  subresource: 'status',
};
const patchBy = (
  controller: string,
  target: MutationTarget,
  body: unknown,
  patchType: Mutation['patchType'] = 'strategic-merge',
): Mutation =>
  aMutation({
    controller,
    verb: 'Patch',
    target,
    patchType,
    patch: JSON.stringify(body),
    preconditions: { uid: 'u', resourceVersion: '7' },
  });
const nodeLifecycle = (body: unknown, target = node, type: Mutation['patchType'] = 'strategic-merge') =>
  contentRefusal(patchBy('node-lifecycle-controller', target, body, type));
const taintEviction = (body: unknown, target = podStatus) =>
  contentRefusal(patchBy('taint-eviction-controller', target, body));

describe('contentRefusal: what node lifecycle and taint eviction may write', () => {
  it("given node lifecycle patching a node's taints or its beta os/arch labels (PatchNodeTaints, reconcileNodeLabels), then it may", () => {
    assert.equal(
      nodeLifecycle({
        spec: {
          taints: [{ key: 'node.kubernetes.io/unreachable', effect: 'NoExecute', timeAdded: '2026-11-23T12:00:00Z' }],
        },
      }),
      undefined,
    );
    assert.equal(
      nodeLifecycle({ metadata: { labels: { 'beta.kubernetes.io/os': 'linux', 'beta.kubernetes.io/arch': 'amd64' } } }),
      undefined,
    );
  });

  it('given node lifecycle patching anything else of a node, as a json patch, or another subresource, then it is refused naming what', () => {
    assert.match(
      nodeLifecycle({ spec: { unschedulable: true } }) ?? '',
      /node-lifecycle-controller may not Patch a patch of \/spec\/unschedulable/,
    );
    assert.match(
      nodeLifecycle({ metadata: { labels: { 'node-role.kubernetes.io/control-plane': '' } } }) ?? '',
      /\/metadata\/labels\/node-role/,
    );
    assert.match(nodeLifecycle({ metadata: { annotations: { a: 'b' } } }) ?? '', /\/metadata\/annotations/);
    assert.match(
      nodeLifecycle({ spec: null }) ?? '',
      /a patch of \/spec, outside .*\/spec\/taints/,
      'null deletes the spec',
    );
    assert.match(nodeLifecycle({ metadata: { labels: null } }) ?? '', /a patch of \/metadata\/labels,/, 'every label');
    assert.match(
      nodeLifecycle([{ op: 'replace', path: '/spec/taints', value: [] }], node, 'json') ?? '',
      /a json patch/,
    );
  });

  it("given taint eviction patching a pod's DisruptionTarget condition (addConditionAndDeletePod), then it may; any other field or condition is refused", () => {
    const condition = {
      type: 'DisruptionTarget',
      status: 'True',
      reason: 'DeletionByTaintManager',
      message: 'Taint manager: deleting due to NoExecute taint',
    };
    assert.equal(taintEviction({ status: { conditions: [condition] } }), undefined);
    assert.match(
      taintEviction({ status: { conditions: [{ ...condition, type: 'Ready' }] } }) ?? '',
      /a pod condition of type "Ready"/,
    );
    assert.match(taintEviction({ status: { phase: 'Failed' } }) ?? '', /\/status\/phase/);
  });
});

describe('contentRefusal: what the endpointslice controller may write', () => {
  const target: MutationTarget = {
    apiVersion: 'discovery.k8s.io/v1',
    kind: 'EndpointSlice',
    namespace: 'default',
    name: 'web-abc',
    resource: 'endpointslices',
    subresource: null,
  };
  const owner = {
    apiVersion: 'v1',
    kind: 'Service',
    name: 'web',
    uid: 'svc-uid',
    controller: true,
    blockOwnerDeletion: true,
  };
  const labels = {
    'kubernetes.io/service-name': 'web',
    'endpointslice.kubernetes.io/managed-by': 'endpointslice-controller.k8s.io',
  };
  const slice = (metadata: Record<string, unknown>, verb: 'Create' | 'Update' = 'Create'): Mutation =>
    aMutation({
      controller: 'endpointslice-controller',
      verb,
      target,
      preconditions: { uid: verb === 'Update' ? 'u' : null, resourceVersion: verb === 'Update' ? '7' : null },
      body: JSON.stringify({
        apiVersion: 'discovery.k8s.io/v1',
        kind: 'EndpointSlice',
        metadata,
        addressType: 'IPv4',
        endpoints: [],
      }),
    });

  it('given a slice labelled as its own and controlled by the Service its label names, then it may create and update it', () => {
    assert.equal(contentRefusal(slice({ generateName: 'web-', labels, ownerReferences: [owner] })), undefined);
    assert.equal(contentRefusal(slice({ name: 'web-abc', labels, ownerReferences: [owner] }, 'Update')), undefined);
  });

  it("given a slice of the user's, with no owner, owned by another Service than its label names, or of another namespace, then it is refused", () => {
    assert.match(
      contentRefusal(
        slice({
          labels: { ...labels, 'endpointslice.kubernetes.io/managed-by': 'someone-else' },
          ownerReferences: [owner],
        }),
      ) ?? '',
      /not labelled endpointslice.kubernetes.io\/managed-by=endpointslice-controller.k8s.io/,
    );
    assert.match(
      contentRefusal(slice({ labels })) ?? '',
      /whose controller is not the one Service its kubernetes.io\/service-name label names/,
    );
    assert.match(
      contentRefusal(slice({ labels: { ...labels, 'kubernetes.io/service-name': 'db' }, ownerReferences: [owner] })) ??
        '',
      /not the one Service/,
    );
    assert.match(
      contentRefusal(slice({ labels, ownerReferences: [{ ...owner, kind: 'Pod' }] })) ?? '',
      /not the one Service/,
    );
    assert.match(
      contentRefusal(slice({ namespace: 'kube-system', labels, ownerReferences: [owner] })) ?? '',
      /a slice of namespace "kube-system" in default/,
    );
  });
});

describe("contentRefusal: the ServiceAccount controller's one write", () => {
  const account = (metadata: Record<string, unknown>): Mutation =>
    aCreate({
      controller: 'serviceaccount-controller',
      target: { ...aCreate().target, kind: 'ServiceAccount', resource: 'serviceaccounts', name: 'default' },
      body: JSON.stringify({ metadata }),
      reconcileKey: 'default',
    });

  it('given the default ServiceAccount of the namespace it syncs (syncNamespace), then it may create it', () => {
    assert.equal(contentRefusal(account({ name: 'default', namespace: 'default' })), undefined);
  });

  it('given any other account, or one into another namespace than the target, then it is refused naming why', () => {
    assert.match(contentRefusal(account({ name: 'admin', namespace: 'default' })) ?? '', /not named "default"/);
    assert.match(
      contentRefusal(account({ name: 'default', namespace: 'kube-system' })) ?? '',
      /of namespace "kube-system" in default/,
    );
  });
});
