import type { AvroRecord } from '@kcm-bus/schemas/avro/avro-schema.ts';
import { memoryRegistry } from '../registry/registry.fixture.ts';
import { AvroCodec } from './codec.avro.ts';
import { watchEventView } from './project-schema.ts';
import { Serde } from './serde.ts';

/** Test fixture: throughView writes a value with the whole schema and reads it back through `view` (none: whole), as a projecting reader does. */
export async function throughView(schema: AvroRecord, view: AvroRecord | undefined, value: unknown): Promise<unknown> {
  const registry = memoryRegistry();
  const codec = (s: object): AvroCodec => new AvroCodec(s);
  const bytes = (await new Serde(registry, 't', schema, codec).encode(value)).bytes;
  return (await new Serde(registry, 't', schema, codec, view).decode(bytes)).value;
}

/**
 * Test fixture: throughFields writes an object in a watch record of `schema` as the watcher does and reads it back
 * as an input naming `fields` does (through watchEventView), for the tests that check a controller's fields cover
 * what its code reads of an object.
 */
export async function throughFields<T>(schema: AvroRecord, fields: readonly string[], object: T): Promise<T> {
  const record = { type: 'Applied', key: 'k', resourceVersion: '1', observedAt: '2026-11-27T00:00:00Z', object };
  return ((await throughView(schema, watchEventView(schema, fields), record)) as { readonly object: T }).object;
}
