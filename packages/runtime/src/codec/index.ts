/**
 * The runtime's codec area, its public entry: the codec port and the Avro value model: message values to bytes and back (AvroCodec is codec.avro.ts). Code outside packages/runtime imports this index, an
 * adapter (`*.<impl>.ts`) or a fixture, never a module behind it (.dependency-cruiser.cjs, runtime-through-its-entries).
 */
export * from './avro-value.ts';
export * from './codec.ts';
export * from './from-avro-value.ts';
export * from './project-schema.ts';
export * from './residue.ts';
export * from './serde.ts';
export * from './to-avro-value.ts';
export * from './wire.ts';
