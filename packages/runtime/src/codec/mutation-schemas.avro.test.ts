import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import avro from 'avsc';
import { loadMutationSchemas } from '@kcm-bus/schemas/mutation-schemas.fs.ts';
import { aCreate, aMutation, aRecordEvent } from '../mutation/mutation.fixture.ts';
import type { Mutation } from '../mutation/mutation.ts';
import type { MutationResult } from '../mutation/mutation-result.ts';
import { validateMutation } from '../mutation/validate-mutation.ts';
import { avscOptions } from './codec.avro.ts';

type Field = { readonly name: string; readonly type: unknown; readonly default?: unknown };
type RecordSchema = { readonly name: string; readonly namespace?: string; readonly fields: readonly Field[] };

const schemas = loadMutationSchemas();
const mutationSchema = schemas.mutation as RecordSchema;
const resultSchema = schemas.result as RecordSchema;
/** typeOf parses a schema the way every kcm-bus codec does (unions unwrapped: null or the value itself). */
const typeOf = (schema: RecordSchema): avro.Type => avro.Type.forSchema(schema as avro.Schema, avscOptions());
/** plain drops the record classes avsc decodes into, keeping the data. */
const plain = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

/** nullableFields lists every `["null", T]` field in a schema, at any depth, with its default. */
function nullableFields(type: unknown, path = ''): { readonly path: string; readonly field: Field }[] {
  if (Array.isArray(type)) return type.flatMap((branch) => nullableFields(branch, path));
  if (typeof type !== 'object' || type === null) return [];
  const t = type as { fields?: readonly Field[]; items?: unknown };
  if (t.items !== undefined) return nullableFields(t.items, `${path}[]`);
  return (t.fields ?? []).flatMap((field) => [
    ...(Array.isArray(field.type) && field.type.includes('null') ? [{ path: `${path}${field.name}`, field }] : []),
    ...nullableFields(field.type, `${path}${field.name}.`),
  ]);
}

const aResult: MutationResult = {
  mutationId: 'm-1',
  controller: 'replicationcontroller-controller',
  verb: 'Create',
  target: aCreate().target,
  outcome: 'AlreadyDone',
  status: 409,
  reason: 'AlreadyExists',
  message: 'pods "web-x" already exists',
  name: 'web-x',
  resourceVersion: null,
  uid: null,
  attempts: 1,
  reconcileKey: 'default/web',
  appliedAt: '2026-11-22T14:00:01Z',
};

describe('schemas/mutation in avsc', () => {
  it('given both files, then avsc parses them as io.kcmbus.v1 records', () => {
    assert.equal(typeOf(mutationSchema).name, 'io.kcmbus.v1.Mutation');
    assert.equal(typeOf(resultSchema).name, 'io.kcmbus.v1.MutationResult');
  });

  it('given a Create and a RecordEvent, then they survive an Avro round trip and still validate', () => {
    const type = typeOf(mutationSchema);
    for (const m of [aCreate(), aRecordEvent()]) {
      const decoded = type.fromBuffer(type.toBuffer(m)) as unknown;
      assert.deepEqual(plain(decoded), m);
      assert.deepEqual(validateMutation(decoded), m);
    }
  });

  it('given a MutationResult, with a content report or none, then it survives an Avro round trip', () => {
    const type = typeOf(resultSchema);
    const report = {
      estimateSeconds: 15,
      remaining: [{ resource: 'configmaps', group: '', count: 2 }],
      finalizers: [{ finalizer: 'example.com/hold', count: 2 }],
      discoveryError: 'stale',
      discoveryFailedGroups: 1,
      groupVersionError: null,
      deleteContentErrors: ['boom'],
    };
    for (const result of [
      { ...aResult, contentReport: null },
      { ...aResult, contentReport: report },
    ])
      assert.deepEqual(plain(type.fromBuffer(type.toBuffer(result))), result);
  });

  it('given the two files, then MutationResult.target is the same MutationTarget record as Mutation.target', () => {
    const target = (schema: RecordSchema): unknown => schema.fields.find((f) => f.name === 'target')?.type;
    assert.deepEqual(target(resultSchema), target(mutationSchema));
    assert.equal((target(mutationSchema) as RecordSchema).name, 'MutationTarget');
  });

  it('given every field that may be absent, then it is ["null", T] with default null', () => {
    const nullable = [...nullableFields(mutationSchema), ...nullableFields(resultSchema)];
    assert.ok(nullable.length >= 20, `found only ${nullable.length} nullable fields`);
    for (const { path, field } of nullable) {
      assert.equal((field.type as unknown[])[0], 'null', `${path}: null comes first`);
      assert.equal(field.default, null, `${path}: default null`);
    }
  });

  it('given a record written without the optional fields (an older writer), then the reader fills them with null', () => {
    const required = new Set(['id', 'controller', 'verb', 'target', 'preconditions', 'cause', 'createdAt']);
    const older: RecordSchema = {
      ...mutationSchema,
      fields: mutationSchema.fields.filter((f) => required.has(f.name)),
    };
    const writer = typeOf(older);
    const reader = typeOf(mutationSchema);
    const { body: _b, patch: _p, patchType: _t, fieldManager: _f, event: _e, ...oldValue } = aCreate();
    const decoded = reader.fromBuffer(writer.toBuffer(oldValue), reader.createResolver(writer)) as Record<
      string,
      unknown
    >;
    assert.deepEqual([decoded['body'], decoded['patch'], decoded['event']], [null, null, null]);
  });

  it('given a cause written before MutationCause had key and resourceVersion, then the reader reads them as null and validation leaves them out', () => {
    const withOldCause = (field: Field): Field => {
      if (field.name !== 'cause') return field;
      const items = (field.type as { items: RecordSchema }).items;
      return {
        ...field,
        type: {
          type: 'array',
          items: { ...items, fields: items.fields.filter((f) => ['topic', 'partition', 'offset'].includes(f.name)) },
        },
      };
    };
    const writer = typeOf({ ...mutationSchema, fields: mutationSchema.fields.map(withOldCause) });
    const reader = typeOf(mutationSchema);
    const old = aMutation({ cause: [{ topic: 'kcm.state.pods', partition: 1, offset: 9 }] });
    const decoded = reader.fromBuffer(writer.toBuffer(old), reader.createResolver(writer)) as Mutation;
    assert.deepEqual(plain(decoded.cause), [
      { topic: 'kcm.state.pods', partition: 1, offset: 9, key: null, resourceVersion: null },
    ]);
    assert.deepEqual(validateMutation(decoded), old);
  });
});
