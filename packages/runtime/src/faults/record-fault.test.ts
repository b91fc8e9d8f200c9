import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ValueShapeError } from '../codec/avro-value.ts';
import { AvroDecodeError } from '../codec/binary-reader.ts';
import { AvroEncodeError } from '../codec/encode-state.ts';
import { WireFormatError } from '../codec/wire.ts';
import { RegistryError } from '../registry/registry.ts';
import { classifyFault, deadLetterHeaders, deadLetterTopic, TransientError } from './record-fault.ts';

const withCode = (code: string): Error => Object.assign(new Error(code), { code });

describe('classifyFault: retry what passes, dead-letter what never can succeed', () => {
  it('given a registry that is down, answers 5xx or 429, or a socket error anywhere in the cause chain, then the fault is transient', () => {
    for (const err of [
      new TypeError('fetch failed'),
      new RegistryError('x', 503),
      new RegistryError('x', 429),
      withCode('ECONNREFUSED'),
      new Error('wrapped', { cause: withCode('ECONNRESET') }),
      new TransientError('redis command timed out'),
    ]) {
      assert.equal(classifyFault(err), 'transient', String(err));
    }
  });

  it('given bytes not in our wire format, an unknown schema id, an Avro misfit or any other error, then the record is poison', () => {
    for (const err of [
      new WireFormatError('magic'),
      new RegistryError('schema 999 not found', 404),
      new AvroEncodeError('T', [new ValueShapeError('a', 'int', 'x')]),
      new AvroDecodeError('truncated buffer'),
      new RangeError('truncated buffer'),
      'a string was thrown',
    ]) {
      assert.equal(classifyFault(err), 'poison', String(err));
    }
  });
});

describe('dead letters', () => {
  it('given a topic, then its dead-letter topic is <topic>.dlq and the headers say why, where from and who gave up', () => {
    assert.equal(deadLetterTopic('kcm.watch.pods'), 'kcm.watch.pods.dlq');
    assert.deepEqual(
      deadLetterHeaders(
        { topic: 'kcm.watch.pods', partition: 2, offset: '17' },
        'undecodable',
        'kcm-bus-reconciler-rc',
      ),
      {
        'kcm-bus.reason': 'undecodable',
        'kcm-bus.source': 'kcm.watch.pods/2/17',
        'kcm-bus.consumer': 'kcm-bus-reconciler-rc',
      },
    );
  });
});
