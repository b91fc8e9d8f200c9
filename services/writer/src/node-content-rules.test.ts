import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { aMutation } from '@kcm-bus/runtime/mutation/mutation.fixture.ts';
import type { Mutation, MutationTarget } from '@kcm-bus/runtime/mutation/mutation.ts';
import { contentRefusal } from './content-rules.ts';

const node: MutationTarget = { apiVersion: 'v1', kind: 'Node', namespace: null, name: 'n1', resource: 'nodes', subresource: null };
const podStatus: MutationTarget = { apiVersion: 'v1', kind: 'Pod', namespace: 'default', name: 'web-1', resource: 'pods', subresource: 'status' };
const patch = (controller: string, target: MutationTarget, body: unknown, patchType: Mutation['patchType'] = 'strategic-merge'): Mutation =>
  aMutation({ controller, verb: 'Patch', target, patchType, patch: JSON.stringify(body), preconditions: { uid: 'u', resourceVersion: '7' } });
const nodeLifecycle = (body: unknown, target = node, type: Mutation['patchType'] = 'strategic-merge') => contentRefusal(patch('node-lifecycle-controller', target, body, type));
const taintEviction = (body: unknown, target = podStatus) => contentRefusal(patch('taint-eviction-controller', target, body));

describe('contentRefusal: what node lifecycle and taint eviction may write', () => {
  it('given node lifecycle patching a node\'s taints or its beta os/arch labels (PatchNodeTaints, reconcileNodeLabels), then it may', () => {
    assert.equal(nodeLifecycle({ spec: { taints: [{ key: 'node.kubernetes.io/unreachable', effect: 'NoExecute', timeAdded: '2026-11-23T12:00:00Z' }] } }), undefined);
    assert.equal(nodeLifecycle({ metadata: { labels: { 'beta.kubernetes.io/os': 'linux', 'beta.kubernetes.io/arch': 'amd64' } } }), undefined);
  });

  it('given node lifecycle patching anything else of a node, as a json patch, or another subresource, then it is refused naming what', () => {
    assert.match(nodeLifecycle({ spec: { unschedulable: true } }) ?? '', /node-lifecycle-controller may not Patch a patch of \/spec\/unschedulable/);
    assert.match(nodeLifecycle({ metadata: { labels: { 'node-role.kubernetes.io/control-plane': '' } } }) ?? '', /\/metadata\/labels\/node-role/);
    assert.match(nodeLifecycle({ metadata: { annotations: { a: 'b' } } }) ?? '', /\/metadata\/annotations/);
    assert.match(nodeLifecycle([{ op: 'replace', path: '/spec/taints', value: [] }], node, 'json') ?? '', /a json patch/);
    assert.match(nodeLifecycle({ spec: { taints: [] } }, { ...node, subresource: 'status' }) ?? '', /patch nodes\/status/);
  });

  it('given taint eviction patching a pod\'s DisruptionTarget condition (addConditionAndDeletePod), then it may; any other field or condition is refused', () => {
    const condition = { type: 'DisruptionTarget', status: 'True', reason: 'DeletionByTaintManager', message: 'Taint manager: deleting due to NoExecute taint' };
    assert.equal(taintEviction({ status: { conditions: [condition] } }), undefined);
    assert.match(taintEviction({ status: { conditions: [{ ...condition, type: 'Ready' }] } }) ?? '', /a pod condition of type "Ready"/);
    assert.match(taintEviction({ status: { phase: 'Failed' } }) ?? '', /\/status\/phase/);
    assert.match(taintEviction({ spec: { nodeName: 'x' } }, { ...podStatus, subresource: null }) ?? '', /patch pods\//);
  });

  it('given node lifecycle patching a pod\'s status, then only its Ready condition (MarkPodsNotReady)', () => {
    assert.equal(nodeLifecycle({ status: { conditions: [{ type: 'Ready', status: 'False' }] } }, podStatus), undefined);
    assert.match(nodeLifecycle({ status: { conditions: [{ type: 'DisruptionTarget', status: 'True' }] } }, podStatus) ?? '', /of type "DisruptionTarget"/);
  });
});
