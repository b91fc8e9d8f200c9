import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { BusRecord } from '../bus/bus.ts';
import { generateKeyPairSync } from 'node:crypto';
import { ForgedRecordError, signingWith, UNSIGNED, WRITER_SIGNER } from '../signing/signing.ts';
import { MalformedRecordError, routeRecord } from './record-route.ts';

const json = { decode: async (b: Buffer) => ({ value: JSON.parse(b.toString()) as unknown, schemaId: 1 }) };
const record = (key: string, value: unknown): BusRecord => ({
  key: Buffer.from(key),
  value: value === null ? null : Buffer.from(JSON.stringify(value)),
  offset: '3',
  timestamp: '0',
  headers: {},
});
const pod = (namespace: string, name: string) => ({
  type: 'Applied',
  key: `${namespace}/${name}`,
  resourceVersion: '9',
  observedAt: '',
  object: { metadata: { namespace, name } },
});

describe('routeRecord: what a consumed record is for a controller', () => {
  it('given a watch record, then it is an event with its cause, key, object and version', async () => {
    const routed = await routeRecord(json, undefined, 'kcm.watch.pods', 2, record('ns/p', pod('ns', 'p')), true);
    assert.deepEqual(routed, {
      kind: 'event',
      event: {
        cause: { topic: 'kcm.watch.pods', partition: 2, offset: 3, key: 'ns/p', resourceVersion: '9' },
        type: 'Applied',
        key: 'ns/p',
        object: { metadata: { namespace: 'ns', name: 'p' } },
        resourceVersion: '9',
        live: true,
      },
    });
  });

  it("given an input's tombstone, then it is the delete of its key, with no object and no version (compaction may have removed the Deleted before it)", async () => {
    assert.deepEqual(await routeRecord(json, undefined, 'kcm.state.pods', 1, record('ns/p', null), false), {
      kind: 'event',
      event: {
        cause: { topic: 'kcm.state.pods', partition: 1, offset: 3, key: 'ns/p' },
        type: 'Deleted',
        key: 'ns/p',
        object: null,
        resourceVersion: '',
        live: false,
      },
    });
  });

  it('given a tombstone of the results topic, or a topic without a serde, then there is nothing to act on', async () => {
    assert.equal((await routeRecord(json, UNSIGNED, 'r', 0, record('ns/p', null), true)).kind, 'skip');
    assert.equal((await routeRecord(undefined, undefined, 't', 0, record('ns/p', pod('ns', 'p')), true)).kind, 'skip');
  });

  it("given a watermark, then it is the watcher's time its partition is complete up to and the resourceVersion its watch had reached", async () => {
    const watermark = {
      type: 'Watermark',
      key: '~watermark',
      resourceVersion: '9',
      observedAt: '2026-11-23T12:00:00.000Z',
      object: null,
    };
    assert.deepEqual(await routeRecord(json, undefined, 't', 0, record('~watermark', watermark), true), {
      kind: 'watermark',
      observedAt: new Date('2026-11-23T12:00:00.000Z'),
      resourceVersion: '9',
    });
  });

  it('given a watermark without a time, or an object under the watermark key, then it is refused as malformed', async () => {
    const watermark = { type: 'Watermark', key: '~watermark', resourceVersion: '9', observedAt: 'soon', object: null };
    await assert.rejects(
      routeRecord(json, undefined, 't', 0, record('~watermark', watermark), true),
      MalformedRecordError,
    );
    await assert.rejects(
      routeRecord(json, undefined, 't', 0, record('~watermark', pod('ns', 'p')), true),
      MalformedRecordError,
    );
    await assert.rejects(
      routeRecord(json, undefined, 't', 0, record('ns/p', { ...watermark, observedAt: '2026-11-23T12:00:00Z' }), true),
      MalformedRecordError,
    );
  });

  it("given a record of a withheld kind (a Secret's) that carries a value, then it is refused as malformed; its digests pass", async () => {
    const secret = (extra: object) => ({
      ...pod('ns', 's'),
      object: { metadata: { namespace: 'ns', name: 's' }, ...extra },
    });
    for (const value of [{ data: { token: 'dG9r' } }, { stringData: { token: 'tok' } }])
      await assert.rejects(
        routeRecord(json, undefined, 'kcm.state.secrets', 0, record('ns/s', secret(value)), true),
        /carries values .* never travel/,
      );
    const digests = secret({ dataDigests: { token: 'x' } });
    assert.equal(
      (await routeRecord(json, undefined, 'kcm.watch.secrets', 0, record('ns/s', digests), true)).kind,
      'event',
    );
    const { object: _none, ...deleted } = { ...secret({}), type: 'Deleted' };
    assert.equal(
      (await routeRecord(json, undefined, 'kcm.state.secrets', 0, record('ns/s', deleted), true)).kind,
      'event',
    );
    const configMap = secret({ data: { k: 'v' } });
    assert.equal(
      (await routeRecord(json, undefined, 'kcm.state.configmaps', 0, record('ns/s', configMap), true)).kind,
      'event',
    );
  });

  it('given a record of a metadata-only kind that carries more than an identity, then it is refused as malformed; an identity passes', async () => {
    const configMap = (object: object) => ({ ...pod('ns', 'c'), object });
    const identity = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { namespace: 'ns', name: 'c', uid: 'u' } };
    for (const more of [{ data: { k: 'v' } }, { metadata: { ...identity.metadata, labels: { a: 'b' } } }])
      await assert.rejects(
        routeRecord(
          json,
          undefined,
          'kcm.watch.metadata.configmaps',
          0,
          record('ns/c', configMap({ ...identity, ...more })),
          true,
        ),
        /carries more than an identity \((data|metadata\.labels)\)/,
      );
    assert.equal(
      (
        await routeRecord(
          json,
          undefined,
          'kcm.state.metadata.configmaps',
          0,
          record('ns/c', configMap(identity)),
          true,
        )
      ).kind,
      'event',
    );
  });

  it('given a record whose key names another object than it carries, then it is refused as malformed (poison)', async () => {
    await assert.rejects(
      routeRecord(json, undefined, 'kcm.watch.pods', 0, record('ns/a', pod('ns', 'b')), true),
      MalformedRecordError,
    );
  });

  it('given a result, then it is routed only when the writer signed it: unsigned or forged, it is refused (poison)', async () => {
    const writer = generateKeyPairSync('ed25519');
    const trusted = new Map([[WRITER_SIGNER, writer.publicKey]]);
    const reader = signingWith({ name: 'replicationcontroller-controller', trusted });
    const result = record('ns/p', { mutationId: 'm1', outcome: 'Applied' });
    const signed = {
      ...result,
      headers: signingWith({ name: WRITER_SIGNER, privateKey: writer.privateKey, trusted }).headers(
        'ns/p',
        result.value!,
      ),
    };
    const routed = await routeRecord(json, reader, 'kcm.mutation-results', 1, signed, true);
    assert.deepEqual(routed.kind === 'result' ? routed.cause : routed, {
      topic: 'kcm.mutation-results',
      partition: 1,
      offset: 3,
      key: 'ns/p',
    });
    await assert.rejects(routeRecord(json, reader, 'kcm.mutation-results', 1, result, true), ForgedRecordError);
    const forger = signingWith({ name: WRITER_SIGNER, privateKey: generateKeyPairSync('ed25519').privateKey, trusted });
    await assert.rejects(
      routeRecord(
        json,
        reader,
        'kcm.mutation-results',
        1,
        { ...result, headers: forger.headers('ns/p', result.value!) },
        true,
      ),
      ForgedRecordError,
    );
  });
});
