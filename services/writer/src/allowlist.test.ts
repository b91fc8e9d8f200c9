import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { aCreate, aMutation, aRecordEvent, podTarget } from '@kcm-bus/runtime/mutation/mutation.fixture.ts';
import type { Mutation } from '@kcm-bus/runtime/mutation/index.ts';
import { allows, DEFAULT_ALLOWLIST, parseAllowlist, resourceOf } from './allowlist.ts';

const rc = 'replicationcontroller-controller';
const nodes = { apiVersion: 'v1', kind: 'Node', namespace: null, name: 'n1', resource: 'nodes', subresource: null };
const by = (controller: string, m: Mutation): Mutation => ({ ...m, controller });

describe('DEFAULT_ALLOWLIST', () => {
  it('given the RC controller, then it may create, delete and patch pods (adoption and release), update RC status and record events, nothing else', () => {
    assert.equal(allows(DEFAULT_ALLOWLIST, aCreate()), true);
    assert.equal(allows(DEFAULT_ALLOWLIST, aMutation()), true);
    const rcStatus = aMutation({
      verb: 'UpdateStatus',
      target: { ...podTarget, kind: 'ReplicationController', resource: 'replicationcontrollers' },
    });
    assert.equal(allows(DEFAULT_ALLOWLIST, rcStatus), true);
    assert.equal(allows(DEFAULT_ALLOWLIST, aRecordEvent()), true);
    assert.equal(allows(DEFAULT_ALLOWLIST, aMutation({ verb: 'Patch' })), true);
    assert.equal(allows(DEFAULT_ALLOWLIST, aMutation({ verb: 'Update' })), false);
    assert.equal(allows(DEFAULT_ALLOWLIST, aMutation({ verb: 'UpdateStatus' })), false);
    assert.equal(allows(DEFAULT_ALLOWLIST, aMutation({ target: nodes })), false);
  });

  it('given the endpoints controller, then it may create, update and delete endpoints but not pods', () => {
    const endpoints = { ...podTarget, kind: 'Endpoints', resource: 'endpoints' };
    for (const verb of ['Create', 'Update', 'Delete'] as const) {
      assert.equal(
        allows(DEFAULT_ALLOWLIST, by('endpoints-controller', aMutation({ verb, target: endpoints }))),
        true,
        verb,
      );
    }
    assert.equal(allows(DEFAULT_ALLOWLIST, by('endpoints-controller', aMutation())), false);
  });

  it('given node lifecycle, then it may patch node taints, update node and pod status, delete pods, but not create them', () => {
    const nl = 'node-lifecycle-controller';
    assert.equal(allows(DEFAULT_ALLOWLIST, by(nl, aMutation({ verb: 'Patch', target: nodes }))), true);
    assert.equal(allows(DEFAULT_ALLOWLIST, by(nl, aMutation({ verb: 'UpdateStatus', target: nodes }))), true);
    assert.equal(
      allows(DEFAULT_ALLOWLIST, by(nl, aMutation({ verb: 'Patch', target: { ...nodes, subresource: 'status' } }))),
      false,
      'its status writes are updates',
    );
    assert.equal(
      allows(DEFAULT_ALLOWLIST, by(nl, aMutation({ verb: 'Update', target: nodes }))),
      false,
      'no whole-node writes',
    );
    assert.equal(allows(DEFAULT_ALLOWLIST, by(nl, aMutation({ verb: 'UpdateStatus' }))), true);
    assert.equal(allows(DEFAULT_ALLOWLIST, by(nl, aMutation())), true);
    assert.equal(allows(DEFAULT_ALLOWLIST, by(nl, aCreate())), false);
    assert.equal(allows(DEFAULT_ALLOWLIST, by(nl, aMutation({ verb: 'Delete', target: nodes }))), false);
  });

  it('given the ReplicaSet controller, then it may create, patch and delete pods and update ReplicaSet status, but not RC status', () => {
    const rs = 'replicaset-controller';
    const status = (resource: string, apiVersion: string) =>
      aMutation({ verb: 'UpdateStatus', target: { ...podTarget, apiVersion, kind: 'X', resource } });
    for (const m of [
      aCreate(),
      aMutation(),
      aMutation({ verb: 'Patch' }),
      status('replicasets', 'apps/v1'),
      aRecordEvent(),
    ])
      assert.equal(allows(DEFAULT_ALLOWLIST, by(rs, m)), true, m.verb);
    assert.equal(allows(DEFAULT_ALLOWLIST, by(rs, status('replicationcontrollers', 'v1'))), false);
    assert.equal(allows(DEFAULT_ALLOWLIST, by(rc, status('replicasets', 'apps/v1'))), false);
  });

  it('given an unknown controller, then nothing is allowed', () => {
    assert.equal(allows(DEFAULT_ALLOWLIST, by('job-controller', aCreate())), false);
  });
});

describe('resourceOf', () => {
  it('given an UpdateStatus, a subresource patch and a named group, then the resource is in kubectl notation', () => {
    assert.equal(resourceOf(aMutation({ verb: 'UpdateStatus' })), 'pods/status');
    assert.equal(resourceOf(aMutation({ verb: 'Patch', target: { ...nodes, subresource: 'status' } })), 'nodes/status');
    assert.equal(
      resourceOf(aMutation({ target: { ...podTarget, apiVersion: 'coordination.k8s.io/v1', resource: 'leases' } })),
      'leases.coordination.k8s.io',
    );
  });
});

describe('parseAllowlist', () => {
  it('given a config, then its entries become the triples it grants', () => {
    const list = parseAllowlist(
      JSON.stringify({ allow: [{ controller: rc, resource: 'pods', verbs: ['Create'] }] }),
      'a.json',
    );
    assert.deepEqual(list, [{ controller: rc, verb: 'Create', resource: 'pods' }]);
    assert.equal(allows(list, aCreate()), true);
    assert.equal(allows(list, aMutation()), false);
  });

  it('given text that is not JSON, then the error names the file', () => {
    assert.throws(() => parseAllowlist('{', 'a.json'), /^AllowlistError: a\.json: not JSON/);
  });

  it('given no allow array, then the error says what is expected', () => {
    assert.throws(() => parseAllowlist('{"rules": []}', 'a.json'), /a\.json: allow: missing or not an array/);
  });

  it('given an unknown verb, then the error names its path and the known verbs', () => {
    const text = JSON.stringify({
      allow: [
        { controller: rc, resource: 'pods', verbs: ['Create'] },
        { controller: rc, resource: 'pods', verbs: ['Delete', 'create'] },
      ],
    });
    assert.throws(() => parseAllowlist(text, 'a.json'), {
      message:
        'a.json: allow[1].verbs[1]: "create" is not one of Create, Update, UpdateStatus, Patch, Delete, RecordEvent, PopulateToken, DeleteNamespaceContent, FinalizeNamespace',
    });
  });

  it('given a malformed resource or a missing controller, then the error names the field', () => {
    assert.throws(
      () =>
        parseAllowlist(JSON.stringify({ allow: [{ controller: rc, resource: 'Pods', verbs: ['Create'] }] }), 'a.json'),
      /allow\[0\]\.resource: "Pods" is not/,
    );
    assert.throws(
      () => parseAllowlist(JSON.stringify({ allow: [{ resource: 'pods', verbs: ['Create'] }] }), 'a.json'),
      /allow\[0\]\.controller: missing/,
    );
    assert.throws(
      () => parseAllowlist(JSON.stringify({ allow: [{ controller: rc, resource: 'pods', verbs: [] }] }), 'a.json'),
      /allow\[0\]\.verbs: missing or not a non-empty array/,
    );
  });
});
