import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { BusRecord } from '../bus/bus.ts';
import { MalformedRecordError, routeRecord } from './record-route.ts';

const json = { decode: async (b: Buffer) => ({ value: JSON.parse(b.toString()) as unknown, schemaId: 1 }) };
const record = (key: string, value: unknown): BusRecord =>
  ({ key: Buffer.from(key), value: value === null ? null : Buffer.from(JSON.stringify(value)), offset: '3', timestamp: '0', headers: {} });
const pod = (namespace: string, name: string) => ({ type: 'Applied', key: `${namespace}/${name}`, resourceVersion: '9', observedAt: '', object: { metadata: { namespace, name } } });

describe('routeRecord: what a consumed record is for a controller', () => {
  it('given a watch record, then it is an event with its cause, key, object and version', async () => {
    const routed = await routeRecord(json, false, 'kcm.watch.pods', 2, record('ns/p', pod('ns', 'p')), true);
    assert.deepEqual(routed, { kind: 'event', event: { cause: { topic: 'kcm.watch.pods', partition: 2, offset: 3 }, type: 'Applied', key: 'ns/p', object: { metadata: { namespace: 'ns', name: 'p' } }, resourceVersion: '9', live: true } });
  });

  it('given a tombstone, a watermark or a topic without a serde, then there is nothing to act on', async () => {
    assert.equal((await routeRecord(json, false, 't', 0, record('ns/p', null), true)).kind, 'skip');
    assert.equal((await routeRecord(json, false, 't', 0, record('~watermark', { type: 'Watermark', object: null }), true)).kind, 'skip');
    assert.equal((await routeRecord(undefined, false, 't', 0, record('ns/p', pod('ns', 'p')), true)).kind, 'skip');
  });

  it('given a record whose key names another object than it carries, then it is refused as malformed (poison)', async () => {
    await assert.rejects(routeRecord(json, false, 'kcm.watch.pods', 0, record('ns/a', pod('ns', 'b')), true), MalformedRecordError);
  });
});
