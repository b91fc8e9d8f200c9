import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { byControllerUID, byNamespace } from './index-funcs.ts';

const pod = (namespace: string, ownerUID: string) => ({ metadata: { namespace, ownerReferences: [{ uid: ownerUID, controller: true }] } });

describe('index functions', () => {
  it('byNamespace gives the namespace, and "" for a cluster-scoped object', () => {
    assert.deepEqual(byNamespace(pod('ns', 'rc1')), ['ns']);
    assert.deepEqual(byNamespace({ metadata: {} }), ['']);
  });

  it('byControllerUID gives only the controller ref\'s UID: a non-controller owner makes an orphan', () => {
    assert.deepEqual(byControllerUID(pod('ns', 'rc1')), ['rc1']);
    assert.deepEqual(byControllerUID({ metadata: { ownerReferences: [{ uid: 'x', controller: false }, { uid: 'y' }] } }), []);
    assert.deepEqual(byControllerUID({ metadata: { ownerReferences: [{ uid: 'x' }, { uid: 'rc2', controller: true }] } }), ['rc2']);
    assert.deepEqual(byControllerUID({}), []);
  });
});
