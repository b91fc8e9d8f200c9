/**
 * The runtime's codec area, its public entry: the codec port, the code compiled from a schema that writes JSON values
 * as Avro and reads them back (AvroCodec, the avsc adapter, is codec.avro.ts), the projection of a schema, the
 * residue of what a schema lacks and the wire format. Code outside packages/runtime imports this index, an adapter
 * (`*.<impl>.ts`) or a fixture, never a module behind it (.dependency-cruiser.cjs, runtime-through-its-entries).
 */
export * from './avro-value.ts';
export { AvroDecodeError } from './binary-reader.ts';
export * from './codec.ts';
export * from './compile-decoder.ts';
export * from './compile-encoder.ts';
export * from './encode-state.ts';
export * from './project-schema.ts';
export * from './residue.ts';
export * from './serde.ts';
export * from './wire.ts';
