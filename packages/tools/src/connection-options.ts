import { readFileSync } from 'node:fs';
import type { Bus } from '@kcm-bus/runtime/bus/bus.ts';
import { kafkaBus } from '@kcm-bus/runtime/bus/bus.kafka.ts';
import { httpSchemaRegistry } from '@kcm-bus/runtime/registry/registry.http.ts';
import type { SchemaRegistry } from '@kcm-bus/runtime/registry/registry.ts';
import { argOptions } from '@kcm-bus/runtime/service/flags.ts';
import { KAFKA_SECURITY_FLAGS, kafkaSecurityFromArgs, type KafkaSecurity } from '@kcm-bus/runtime/service/kafka-security.ts';

/**
 * CONNECTION_OPTIONS are the parseArgs options every kcm-bus tool takes to reach a kcm-bus Kafka and its registry:
 * where they are, and the services' TLS, SASL and registry-auth flags (README "Secured Kafka and registry").
 */
export const CONNECTION_OPTIONS = {
  'kafka-brokers': { type: 'string' }, 'schema-registry-url': { type: 'string' }, ...argOptions(KAFKA_SECURITY_FLAGS),
} as const;

/** Connection is where a tool finds the brokers and the schema registry, and how it logs in to them. */
export type Connection = { readonly brokers: readonly string[]; readonly registry: string; readonly security: KafkaSecurity };

/**
 * connectionOf reads --kafka-brokers and --schema-registry-url, else KCM_BUS_KAFKA_BROKERS and
 * KCM_BUS_SCHEMA_REGISTRY_URL, else the dev stack's endpoints; and the security flags as the services do (a wrong
 * or partial setting throws, naming the flag).
 */
export function connectionOf(values: Readonly<Record<string, string | boolean | undefined>>, env: NodeJS.ProcessEnv): Connection {
  const text = (name: string): string | undefined => (typeof values[name] === 'string' ? values[name] : undefined);
  const registry = text('schema-registry-url') ?? env['KCM_BUS_SCHEMA_REGISTRY_URL'] ?? 'http://127.0.0.1:17105/apis/ccompat/v7';
  return {
    brokers: (text('kafka-brokers') ?? env['KCM_BUS_KAFKA_BROKERS'] ?? '127.0.0.1:17103').split(','),
    registry,
    security: kafkaSecurityFromArgs(values, registry, env, (path) => readFileSync(path, 'utf8')),
  };
}

/** connect is a tool's bus and registry client over a Connection. */
export function connect(c: Connection, clientId: string): { readonly bus: Bus; readonly registry: SchemaRegistry } {
  return { bus: kafkaBus({ brokers: c.brokers, clientId, ...c.security.kafka }), registry: httpSchemaRegistry(c.registry, c.security.registry) };
}
