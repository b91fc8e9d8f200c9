import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { OwnerReference } from './core-v1.ts';
import { controllerOf, isTerminating, rfc3339, rfc3339Nano, timeMs } from './meta-v1.ts';

const ref = (uid: string, controller?: boolean): OwnerReference => ({
  apiVersion: 'v1',
  kind: 'ReplicationController',
  name: uid,
  uid,
  ...(controller === undefined ? {} : { controller }),
});

describe('controllerOf (metav1.GetControllerOf)', () => {
  it('given owner references, then the one with controller=true is the controller', () => {
    assert.equal(controllerOf({ ownerReferences: [ref('a'), ref('b', false), ref('c', true)] })?.uid, 'c');
  });
  it('given none with controller=true, then there is no controller', () =>
    assert.equal(controllerOf({ ownerReferences: [ref('a')] }), undefined));
});

describe('isTerminating', () => {
  it('given a deletionTimestamp, then the object is terminating; without one, it is not', () => {
    assert.equal(isTerminating({ deletionTimestamp: '2026-03-01T12:00:00Z' }), true);
    assert.equal(isTerminating({}), false);
  });
});

describe('timeMs and rfc3339 (metav1.Time)', () => {
  it('given an RFC 3339 time, then its epoch milliseconds; given none or garbage, then undefined', () => {
    assert.equal(timeMs('2026-03-01T12:00:00Z'), Date.UTC(2026, 2, 1, 12));
    assert.deepEqual(
      [timeMs(undefined), timeMs(null), timeMs(''), timeMs('not a time')],
      [undefined, undefined, undefined, undefined],
    );
  });
  it('given a time with milliseconds, then it marshals with whole seconds, as the apiserver serves it', () => {
    assert.equal(rfc3339(new Date('2026-03-01T12:00:04.300Z')), '2026-03-01T12:00:04Z');
  });
});

describe('rfc3339Nano', () => {
  it("given whole seconds or a fraction, then the fraction is trimmed as Go's RFC3339Nano does", () => {
    assert.equal(rfc3339Nano(new Date('2026-11-23T10:00:00.000Z')), '2026-11-23T10:00:00Z');
    assert.equal(rfc3339Nano(new Date('2026-11-23T10:00:00.500Z')), '2026-11-23T10:00:00.5Z');
    assert.equal(rfc3339Nano(new Date('2026-11-23T10:00:00.123Z')), '2026-11-23T10:00:00.123Z');
  });
});
