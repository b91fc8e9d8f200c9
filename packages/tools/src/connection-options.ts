/** CONNECTION_OPTIONS are the parseArgs options every kcm-bus tool takes to reach a kcm-bus Kafka and its registry. */
export const CONNECTION_OPTIONS = {
  'kafka-brokers': { type: 'string' }, 'schema-registry-url': { type: 'string' },
} as const;

/** Connection is where a tool finds the brokers and the schema registry. */
export type Connection = { readonly brokers: readonly string[]; readonly registry: string };

/**
 * connectionOf reads --kafka-brokers and --schema-registry-url, else KCM_BUS_KAFKA_BROKERS and
 * KCM_BUS_SCHEMA_REGISTRY_URL, else the dev stack's endpoints.
 */
export function connectionOf(values: { readonly 'kafka-brokers'?: string | undefined; readonly 'schema-registry-url'?: string | undefined },
  env: NodeJS.ProcessEnv): Connection {
  return {
    brokers: (values['kafka-brokers'] ?? env['KCM_BUS_KAFKA_BROKERS'] ?? '127.0.0.1:17103').split(','),
    registry: values['schema-registry-url'] ?? env['KCM_BUS_SCHEMA_REGISTRY_URL'] ?? 'http://127.0.0.1:17105/apis/ccompat/v7',
  };
}
