import { readFileSync } from 'node:fs';
import type { Bus } from '../bus/bus.ts';
import { kafkaBus, type KafkaBusOptions } from '../bus/bus.kafka.ts';
import { httpSchemaRegistry } from '../registry/registry.http.ts';
import type { SchemaRegistry } from '../registry/registry.ts';
import type { FlagReader } from './flags.ts';
import { kafkaSecurity } from './kafka-security.ts';

/** BusConnection is the bus and the schema registry of a deployment, as a service or subcommand reaches them. */
export type BusConnection = { readonly bus: Bus; readonly schemaRegistry: SchemaRegistry };

/**
 * busConnection is the one place a process started with COMMON_FLAGS reaches Kafka and the registry: the brokers and
 * registry URL with their TLS, SASL and basic auth (kafkaSecurity, the files read here). A wrong security flag
 * throws a FlagError naming it.
 */
export function busConnection(
  flags: FlagReader,
  clientId: string,
  log?: KafkaBusOptions['log'],
  taps?: KafkaBusOptions['taps'],
): BusConnection {
  const url = flags.string('schema-registry-url');
  const security = kafkaSecurity(flags, url, process.env, (path) => readFileSync(path, 'utf8'));
  return {
    bus: kafkaBus({
      brokers: flags.list('kafka-brokers'),
      clientId,
      ...security.kafka,
      ...(log ? { log } : {}),
      ...(taps ? { taps } : {}),
    }),
    schemaRegistry: httpSchemaRegistry(url, security.registry),
  };
}
