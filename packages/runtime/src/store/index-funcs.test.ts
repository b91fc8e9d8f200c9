import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { byControllerUID, byNamespace, byPodController } from './index-funcs.ts';

const pod = (namespace: string, ownerUID: string) => ({
  metadata: {
    namespace,
    ownerReferences: [{ kind: 'ReplicationController', name: 'web', uid: ownerUID, controller: true }],
  },
});

describe('index functions', () => {
  it('byNamespace gives the namespace, and "" for a cluster-scoped object', () => {
    assert.deepEqual(byNamespace(pod('ns', 'rc1')), ['ns']);
    assert.deepEqual(byNamespace({ metadata: {} }), ['']);
  });

  it('byPodController gives namespace/Kind/Name/UID of the controller ref, as PodControllerIndexKey does', () => {
    assert.deepEqual(byPodController(pod('ns', 'rc1')), ['ns/ReplicationController/web/rc1']);
    assert.deepEqual(
      byPodController({
        metadata: {
          namespace: 'ns',
          ownerReferences: [{ uid: 'x' }, { kind: 'K', name: 'n', uid: 'rc2', controller: true }],
        },
      }),
      ['ns/K/n/rc2'],
    );
  });

  it('byPodController gives the bare namespace for an orphan: no owner, or owners none of which is the controller', () => {
    assert.deepEqual(
      byPodController({
        metadata: { namespace: 'ns', ownerReferences: [{ uid: 'x', controller: false }, { uid: 'y' }] },
      }),
      ['ns'],
    );
    assert.deepEqual(byPodController({ metadata: { namespace: 'ns' } }), ['ns']);
    assert.deepEqual(byPodController({}), ['']);
  });

  it("byControllerUID gives the UID of the controller ref (TestGetReplicaSetsWithSameController's index), nothing without one", () => {
    assert.deepEqual(
      byControllerUID({
        metadata: {
          ownerReferences: [{ uid: 'x' }, { kind: 'Deployment', name: 'd', uid: 'dep-1', controller: true }],
        },
      }),
      ['dep-1'],
    );
    assert.deepEqual(byControllerUID({ metadata: { ownerReferences: [{ uid: 'x', controller: false }] } }), []);
    assert.deepEqual(byControllerUID({}), []);
  });
});
