import { readFileSync } from 'node:fs';
import type { Bus } from '@kcm-bus/runtime/bus/index.ts';
import { kafkaBus } from '@kcm-bus/runtime/bus/bus.kafka.ts';
import { httpSchemaRegistry } from '@kcm-bus/runtime/registry/registry.http.ts';
import type { SchemaRegistry } from '@kcm-bus/runtime/registry/index.ts';
import {
  COMMON_FLAGS,
  type FlagReader,
  type FlagSpec,
  KAFKA_SECURITY_FLAGS,
  kafkaSecurity,
  type KafkaSecurity,
} from '@kcm-bus/runtime/service/index.ts';

/**
 * CONNECTION_FLAGS are the flags every kcm-bus tool takes to reach a kcm-bus Kafka and its registry, the services'
 * own (COMMON_FLAGS): where they are (the dev stack's by default), and the TLS, SASL and registry-auth flags
 * (docs/operations.md#secured-kafka-and-registry).
 */
export const CONNECTION_FLAGS: readonly FlagSpec[] = [
  ...COMMON_FLAGS.filter((f) => f.name === 'kafka-brokers' || f.name === 'schema-registry-url'),
  ...KAFKA_SECURITY_FLAGS,
];

/** Connection is where a tool finds the brokers and the schema registry, and how it logs in to them. */
export type Connection = {
  readonly brokers: readonly string[];
  readonly registry: string;
  readonly security: KafkaSecurity;
};

/**
 * connectionOf reads the CONNECTION_FLAGS of a parsed command line as the services do: a wrong or partial security
 * setting throws a FlagError naming the flag; passwords may come from their variables in env.
 */
export function connectionOf(flags: FlagReader, env: NodeJS.ProcessEnv): Connection {
  const registry = flags.string('schema-registry-url');
  return {
    brokers: flags.list('kafka-brokers'),
    registry,
    security: kafkaSecurity(flags, registry, env, (path) => readFileSync(path, 'utf8')),
  };
}

/** connect is a tool's bus and registry client over a Connection. */
export function connect(c: Connection, clientId: string): { readonly bus: Bus; readonly registry: SchemaRegistry } {
  return {
    bus: kafkaBus({ brokers: c.brokers, clientId, ...c.security.kafka }),
    registry: httpSchemaRegistry(c.registry, c.security.registry),
  };
}
