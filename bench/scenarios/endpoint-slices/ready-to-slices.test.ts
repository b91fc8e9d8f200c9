import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Endpoint, EndpointSlice } from '@kcm-bus/k8s/discovery-v1.ts';
import { slicesListing } from './ready-to-slices.ts';

const endpoint = (pod: string, ready: boolean | undefined): Endpoint => ({
  addresses: [`10.0.0.${pod.length}`],
  targetRef: { kind: 'Pod', name: pod },
  ...(ready === undefined ? {} : { conditions: { ready } }),
});
const slice = (name: string, endpoints?: Endpoint[]): EndpointSlice => ({
  metadata: { name, uid: name },
  addressType: 'IPv4',
  ...(endpoints ? { endpoints } : {}),
});

test('slicesListing lists the pods ready in any slice once, and counts every endpoint once', () => {
  const listing = slicesListing([
    slice('a', [endpoint('p1', true), endpoint('p2', false)]),
    slice('b', [endpoint('p1', true), endpoint('p3', undefined)]),
  ]);
  assert.deepEqual([...listing.ready].sort(), ['p1']);
  assert.equal(listing.all, 3);
});

test('slicesListing of a placeholder slice lists nothing', () => {
  assert.deepEqual(slicesListing([slice('empty')]), { ready: [], all: 0 });
});
