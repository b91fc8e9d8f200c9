import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { IDENTITY_FIELDS, identityExceeded, metadataOnlySchema } from './metadata-only.ts';
import { apiResourceOf, groupResource, WATCHED_KINDS, watchedKind, watchTopic } from './kinds.ts';
import type { AvroRecord } from './avro/avro-schema.ts';

describe('metadata-only kinds', () => {
  it('given the watched kinds, then each metadata-only one is named by its group resource and watches that resource', () => {
    const metadataOnly = WATCHED_KINDS.filter((k) => k.metadataOnly === true);
    assert.deepEqual(
      metadataOnly.map((k) => [watchTopic(k), apiResourceOf(k), groupResource(k)]),
      [
        ['kcm.watch.metadata.configmaps', 'configmaps', 'configmaps'],
        ['kcm.watch.metadata.secrets', 'secrets', 'secrets'],
        ['kcm.watch.metadata.jobs.batch', 'jobs', 'jobs.batch'],
        ['kcm.watch.metadata.cronjobs.batch', 'cronjobs', 'cronjobs.batch'],
        ['kcm.watch.metadata.statefulsets.apps', 'statefulsets', 'statefulsets.apps'],
        ['kcm.watch.metadata.daemonsets.apps', 'daemonsets', 'daemonsets.apps'],
      ],
    );
    assert.ok(metadataOnly.every((k) => k.onlyName === undefined && k.onlyType === undefined && !k.withheld));
  });

  it('given a metadata-only schema, then it has a place for the identity alone', () => {
    const schema = metadataOnlySchema(watchedKind('metadata.secrets'));
    assert.deepEqual(
      schema.fields.map((f) => f.name),
      ['apiVersion', 'kind', 'metadata'],
    );
    const metadata = (schema.fields[2]?.type as readonly [string, AvroRecord])[1];
    assert.deepEqual(
      metadata.fields.map((f) => f.name),
      IDENTITY_FIELDS,
    );
  });

  it('given an object of another topic, then identityExceeded says nothing, whatever it carries', () => {
    assert.equal(identityExceeded('kcm.watch.configmaps', { data: { k: 'v' } }), undefined);
    assert.match(
      identityExceeded('kcm.watch.metadata.configmaps', { spec: {} }) ?? '',
      /carries more than an identity \(spec\)/,
    );
  });
});
