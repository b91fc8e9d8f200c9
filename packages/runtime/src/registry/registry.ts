/** Compatibility is a subject's compatibility level in a Confluent-compatible schema registry. */
export type Compatibility = 'BACKWARD' | 'BACKWARD_TRANSITIVE' | 'FORWARD' | 'FULL' | 'NONE';

/**
 * SchemaRegistry is the port to a Confluent-compatible schema registry (Apicurio's ccompat API locally,
 * whatever registry the user runs in production). Subjects are `<topic>-value` (TopicNameStrategy).
 */
export interface SchemaRegistry {
  /** register adds a schema version under a subject (or finds the identical one) and returns its global id. */
  register(subject: string, schema: object): Promise<number>;
  /** schemaById fetches a schema by its global id (the id a record's wire format carries). */
  schemaById(id: number): Promise<object>;
  /** setCompatibility sets a subject's compatibility level. */
  setCompatibility(subject: string, level: Compatibility): Promise<void>;
}

/** RegistryError carries the registry's answer (status and error code) to a failed call. */
export class RegistryError extends Error {
  readonly status: number;
  constructor(message: string, status: number) {
    super(message);
    this.status = status;
  }
}
