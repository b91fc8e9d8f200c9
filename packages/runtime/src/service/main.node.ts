import { Counter, Registry, collectDefaultMetrics } from 'prom-client';
import type { ClientTaps } from '../bus/client-taps.kafka.ts';
import type { Bus } from '../bus/bus.ts';
import type { SchemaRegistry } from '../registry/registry.ts';
import { COMMON_FLAGS } from './common.ts';
import { busConnection, type BusConnection } from './connect.node.ts';
import { flagReader, FlagError, parseFlags, usage, wantsHelp, type FlagReader, type FlagSpec } from './flags.ts';
import { runUntilSignal, type Running } from './lifecycle.ts';
import { jsonLogger, type Level, type Logger } from './log.ts';
import { boundAddress, serveHttp, type Probes } from './serve.http.ts';

/**
 * ServiceContext is what every service's main gets: its flags, logger, metrics registry, the bus and the schema
 * registry (both reached as the --kafka-* and --schema-registry-* flags say, security included).
 */
export type ServiceContext = {
  readonly flags: FlagReader;
  readonly log: Logger;
  readonly registry: Registry;
  readonly bus: Bus;
  readonly schemaRegistry: SchemaRegistry;
  /** fatal logs an error the service cannot go on after and stops it gracefully with exit status 1. */
  readonly fatal: (what: string, err: unknown) => void;
};

/**
 * EVENT_LOOP_SAMPLE_MS is how often the nodejs_eventloop_lag_* histogram samples the event loop. prom-client's 10 ms
 * is a timer that wakes an idle service 100 times a second: 0.28 CPU-s per minute per process measured here (a bare
 * Node 24 process with monitorEventLoopDelay at 10 ms, against 0.02 at 100 ms and 0 without), more than half of what
 * an idle writer or reconciler spent in all. A stall still shows: it delays whichever sample falls inside it.
 */
const EVENT_LOOP_SAMPLE_MS = 100;

/**
 * serviceMain is the shape of every kcm-bus service: parse the common and the service's flags, then start
 * the service, serve /healthz, /readyz and /metrics, and stop gracefully on SIGTERM.
 */
export async function serviceMain(
  name: string,
  specs: readonly FlagSpec[],
  start: (ctx: ServiceContext) => Promise<Running & { readonly probes: Probes }>,
): Promise<void> {
  const argv = process.argv.slice(2);
  if (wantsHelp(argv)) {
    console.log(
      `${name}: kcm-bus service. Every flag can also be set as its environment variable.\n${usage([...COMMON_FLAGS, ...specs])}`,
    );
    process.exit(0);
  }
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: EVENT_LOOP_SAMPLE_MS });
  const { flags, log, connection } = configure(name, specs, argv, kafkaClientCounters(registry));
  await runUntilSignal(log, flags.duration('graceful-shutdown-timeout'), async () => {
    const fatal = (what: string, err: unknown): void => {
      log.error(what, { err });
      process.exitCode = 1;
      process.kill(process.pid, 'SIGTERM');
    };
    const service = await start({ flags, log, registry, ...connection, fatal });
    const server = await serveHttp(flags.string('metrics-bind-address'), registry, service.probes);
    log.info('started', { metrics: `http://${boundAddress(server)}/metrics` });
    return {
      stop: async () => {
        await service.stop();
        server.close();
      },
    };
  });
}

/** configure reads the flags and reaches the bus and registry as they say; a wrong flag exits with status 2, naming it. */
function configure(
  name: string,
  specs: readonly FlagSpec[],
  argv: readonly string[],
  taps: ClientTaps,
): { flags: FlagReader; log: Logger; connection: BusConnection } {
  try {
    const flags = flagReader(parseFlags([...COMMON_FLAGS, ...specs], argv, process.env));
    const log = jsonLogger(name, { level: flags.string('log-level') as Level });
    return {
      flags,
      log,
      connection: busConnection(flags, `kcm-bus-${name}`, (level, msg, extra) => log[level](msg, extra), taps),
    };
  } catch (err) {
    console.error(err instanceof FlagError ? `${name}: ${err.message}` : err);
    process.exit(2);
  }
}

/**
 * kafkaClientCounters count the service's requests to Kafka by API (kcm_bus_kafka_requests_total{api}) and its
 * consumer group members' joins by group (kcm_bus_kafka_group_joins_total{group}).
 */
function kafkaClientCounters(registry: Registry): ClientTaps {
  const requests = new Counter({
    name: 'kcm_bus_kafka_requests_total',
    help: 'Requests sent to Kafka, by Kafka API (Produce, Fetch, EndTxn, ...).',
    labelNames: ['api'],
    registers: [registry],
  });
  const joins = new Counter({
    name: 'kcm_bus_kafka_group_joins_total',
    help: "Joins of the service's consumer group members, by group (an ephemeral group's random suffix left out): each join of a member after its first is a rebalance, a lost session among them.",
    labelNames: ['group'],
    registers: [registry],
  });
  return { request: (api) => requests.inc({ api }), groupJoin: (group) => joins.inc({ group }) };
}
