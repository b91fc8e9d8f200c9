import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { anEvent } from '@kcm-bus/runtime/mutation/mutation.fixture.ts';
import { generateEventName, makeEvent } from './core-event.ts';
import { eventCreateRequest, eventRequest } from './event-request.ts';
import { metaTime, unixNanos } from './event-time.ts';
import { LruCache } from './lru-cache.ts';

const event = makeEvent(anEvent, '2026-11-22T14:00:00.5Z');

describe('eventRequest', () => {
  it('given a Create, then the core/v1 Event is POSTed to its namespace without null fields', () => {
    const req = eventRequest({ type: 'Create', event }, 'replicationcontroller-controller');
    assert.deepEqual([req.method, req.path, req.name], ['POST', '/api/v1/namespaces/default/events', event.name]);
    assert.deepEqual(JSON.parse(req.body ?? ''), {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: event.name, namespace: 'default' },
      involvedObject: {
        apiVersion: 'v1',
        kind: 'ReplicationController',
        namespace: 'default',
        name: 'web',
        uid: 'rc-uid',
        resourceVersion: '41',
      },
      type: 'Normal',
      reason: 'SuccessfulCreate',
      message: 'Created pod: web-abcde',
      source: { component: 'replication-controller' },
      count: 1,
      firstTimestamp: '2026-11-22T14:00:00Z',
      lastTimestamp: '2026-11-22T14:00:00Z',
    });
  });

  it('given a Patch, then count, lastTimestamp and message go as a strategic merge patch to the existing Event', () => {
    const patch = { count: 3, lastTimestamp: '2026-11-22T14:02:00Z', message: 'm' };
    const req = eventRequest({ type: 'Patch', event, patch }, 'node-lifecycle-controller');
    assert.deepEqual(
      [req.method, req.path, req.headers['Content-Type'], req.body],
      [
        'PATCH',
        `/api/v1/namespaces/default/events/${event.name}`,
        'application/strategic-merge-patch+json',
        JSON.stringify(patch),
      ],
    );
    assert.deepEqual(req.query, { fieldManager: 'node-lifecycle-controller' });
  });

  it('given a patched Event that is gone (404), then the fallback creates it with its count and no resourceVersion', () => {
    const req = eventCreateRequest({ ...event, count: 3, resourceVersion: '7' }, 'x');
    const body = JSON.parse(req.body ?? '') as { count: number; metadata: object };
    assert.deepEqual([req.method, body.count, body.metadata], ['POST', 3, { name: event.name, namespace: 'default' }]);
  });
});

describe('generateEventName', () => {
  it('given an object name, then <name>.<hex nanos>; given one too long for a DNS subdomain, then a stable UUID-shaped name', () => {
    assert.equal(generateEventName('web', 255n), 'web.ff');
    const long = generateEventName('x'.repeat(251), 255n);
    assert.match(long, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    assert.equal(generateEventName('x'.repeat(251), 255n), long);
  });
});

describe('unixNanos and metaTime', () => {
  it('given RFC 3339 times with fractions and zones, then exact nanoseconds', () => {
    assert.equal(unixNanos('1970-01-01T00:00:01.000000002Z'), 1_000_000_002n);
    assert.equal(unixNanos('1970-01-01T01:00:00.5+01:00'), 500_000_000n);
    assert.throws(() => unixNanos('yesterday'), /not an RFC 3339 time/);
  });

  it('given nanoseconds, then metav1.Time text in whole seconds', () => {
    assert.equal(metaTime(1_795_356_000_999_999_999n), '2026-11-22T14:00:00Z');
  });
});

describe('LruCache', () => {
  it('given a full cache, then adding evicts the least recently used entry', () => {
    const cache = new LruCache<string, number>(2);
    cache.add('a', 1);
    cache.add('b', 2);
    cache.get('a');
    cache.add('c', 3);
    assert.deepEqual([cache.get('a'), cache.get('b'), cache.get('c'), cache.size], [1, undefined, 3, 2]);
  });
});
