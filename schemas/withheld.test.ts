import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { watchedKind } from './kinds.ts';
import { DATA_DIGESTS, withheldSchema, withholdValues } from './withheld.ts';

const secrets = watchedKind('secrets');
const digest = (value: Buffer): string => `digest(${value.toString('utf8')})`;

describe('withheld values (a Secret on the bus)', () => {
  it("given a token Secret as the API serves it, then no value stays: data becomes digests, stringData and every annotation but the account's go", () => {
    const applied = JSON.stringify({ data: { token: 'c2VjcmV0' } });
    const object = {
      metadata: {
        name: 'tok',
        namespace: 'ns',
        labels: { team: 'a' },
        annotations: {
          'kubernetes.io/service-account.name': 'builder',
          'kubernetes.io/service-account.uid': 'u1',
          'kubectl.kubernetes.io/last-applied-configuration': applied,
        },
      },
      type: 'kubernetes.io/service-account-token',
      data: { token: Buffer.from('secret').toString('base64'), 'ca.crt': Buffer.from('').toString('base64') },
      stringData: { other: 'plain' },
    };
    assert.deepEqual(withholdValues(object, secrets.withheld!, digest), {
      metadata: {
        name: 'tok',
        namespace: 'ns',
        labels: { team: 'a' },
        annotations: { 'kubernetes.io/service-account.name': 'builder', 'kubernetes.io/service-account.uid': 'u1' },
      },
      type: 'kubernetes.io/service-account-token',
      [DATA_DIGESTS]: { token: 'digest(secret)', 'ca.crt': 'digest()' },
    });
  });

  it('given a Secret without data or metadata, then nothing is invented', () => {
    assert.deepEqual(withholdValues({ type: 'Opaque' }, secrets.withheld!, digest), { type: 'Opaque' });
  });

  it('given the OpenAPI Secret schema, then the topic schema has no place for a value and one for the digests', () => {
    const schema = withheldSchema({
      type: 'record',
      name: 'Secret',
      fields: ['data', 'stringData', 'type'].map((name) => ({ name, type: 'string' })),
    });
    assert.deepEqual(
      schema.fields.map((f) => f.name),
      ['type', DATA_DIGESTS],
    );
  });
});
