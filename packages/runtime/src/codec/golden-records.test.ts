import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { memoryRegistry } from '../registry/registry.fixture.ts';
import { AvroCodec } from './codec.avro.ts';
import { Serde } from './serde.ts';
import { frame, unframe } from './wire.ts';

/**
 * Golden is golden-records.fixture.json: records written by the codec before it was compiled (its `about` says how),
 * with what it read back and, where that differs from it, the value written.
 */
type Golden = {
  readonly schemas: Readonly<Record<string, string>>;
  readonly records: readonly {
    readonly name: string;
    readonly schema: string;
    readonly payload: string;
    readonly unknownPaths: readonly string[];
    readonly decoded: unknown;
    readonly value?: unknown;
  }[];
};

const golden = JSON.parse(readFileSync(new URL('./golden-records.fixture.json', import.meta.url), 'utf8')) as Golden;
const codec = (schema: object): AvroCodec => new AvroCodec(schema);

describe('records written before the codec was compiled (golden-records.fixture.json)', () => {
  for (const record of golden.records) {
    const schema = JSON.parse(golden.schemas[record.schema] as string) as object;
    const payload = Buffer.from(record.payload, 'base64');

    test(`given ${record.name} as written then, a reader with its schema and one without read what they read then`, async () => {
      const registry = memoryRegistry();
      const bytes = frame(await registry.register('t-value', schema), payload);
      for (const reader of [schema, undefined])
        assert.deepEqual((await new Serde(registry, 't', reader, codec).decode(bytes)).value, record.decoded);
    });

    test(`given ${record.name}, encode writes the same bytes as then and reports the same unknown paths`, async () => {
      const encoded = await new Serde(memoryRegistry(), 't', schema, codec).encode(record.value ?? record.decoded);
      assert.deepEqual(unframe(encoded.bytes).payload, payload);
      assert.deepEqual(encoded.unknownPaths, record.unknownPaths);
    });
  }
});
