import kafkajs, { Kafka, logLevel, type LogEntry } from 'kafkajs';
import {
  deleteTopics,
  ensureTopics,
  groupOffsets,
  listTopics,
  partitionCount,
  partitionOffsets,
  partitionReplicas,
  topicConfigs,
} from './admin.kafka.ts';
import type { Bus, KafkaAcl } from './bus.ts';
import { joinKafkaGroup } from './group.kafka.ts';
import { kafkaPublisher, kafkaTransactionalPublisher } from './publisher.kafka.ts';
import { readTail } from './read-tail.ts';
import { readToEnd } from './read-to-end.ts';
import { stopIdleRequestQueueLoop } from './request-queue-idle.kafka.ts';
import { tapClients, type ClientTaps } from './client-taps.kafka.ts';
import { cacheTransactionCoordinators } from './coordinator-cache.kafka.ts';
import { endFetchersWithRunner } from './fetchers-end.kafka.ts';
import { heartbeatInBackground } from './heartbeat-thread.kafka.ts';
import { followLeaderMoves } from './leader-moves.kafka.ts';
import { chooseLeastLoaded } from './least-loaded.kafka.ts';

stopIdleRequestQueueLoop();
cacheTransactionCoordinators();
chooseLeastLoaded();
followLeaderMoves();
heartbeatInBackground();
endFetchersWithRunner();

/**
 * KafkaTls is how the client speaks TLS to the brokers (an SSL or SASL_SSL listener): the CA to trust (PEM; absent:
 * Node's public CAs), a client key pair for mTLS, and whether the broker's certificate is checked at all.
 */
export type KafkaTls = {
  readonly ca?: string;
  readonly cert?: string;
  readonly key?: string;
  readonly rejectUnauthorized: boolean;
};

/** KafkaSaslMechanism is a SASL mechanism with a user name and password, as kafkajs names it. */
export type KafkaSaslMechanism = 'plain' | 'scram-sha-256' | 'scram-sha-512';

/** KafkaSasl is the SASL login of a SASL_PLAINTEXT or SASL_SSL listener (one type per mechanism, as kafkajs's). */
export type KafkaSasl = {
  readonly [M in KafkaSaslMechanism]: { readonly mechanism: M; readonly username: string; readonly password: string };
}[KafkaSaslMechanism];

/** KafkaBusOptions say where the bus is, who is talking to it and how it proves that (absent: plaintext). */
export type KafkaBusOptions = {
  readonly brokers: readonly string[];
  readonly clientId: string;
  readonly ssl?: KafkaTls;
  readonly sasl?: KafkaSasl;
  /** Receives kafkajs's log entries (warnings and errors); silent when absent. */
  readonly log?: (level: 'error' | 'warn' | 'info' | 'debug', message: string, extra: Record<string, unknown>) => void;
  /** Told of every request sent and every consumer group join (kcm_bus_kafka_requests_total, _group_joins_total). */
  readonly taps?: ClientTaps;
};

const LEVELS: Readonly<Record<number, 'error' | 'warn' | 'info'>> = {
  [logLevel.ERROR]: 'error',
  [logLevel.WARN]: 'warn',
  [logLevel.INFO]: 'info',
};

/**
 * levelOf is the level of a kafkajs log entry in our logs. Demoted to debug, because kafkajs retries them and an
 * exhausted retry reaches our code as an error of its own: the connection's per-response errors (e.g. "coordinator
 * is loading") and any entry of a retry in progress (it carries retryCount), such as a transactional send that met
 * CONCURRENT_TRANSACTIONS while the previous commit completed, which a watcher under load meets hundreds of times
 * a minute. An operator alerting on error lines must not be paged by a healthy system.
 */
export function levelOf(entry: Pick<LogEntry, 'namespace' | 'level' | 'log'>): 'error' | 'warn' | 'info' | 'debug' {
  if (entry.namespace === 'Connection' && entry.log.message.startsWith('Response')) return 'debug';
  if ('retryCount' in entry.log) return 'debug';
  return LEVELS[entry.level] ?? 'info';
}

/**
 * kafkaBus is the Bus on kafkajs, and the one place that constructs kafkajs: every service, tool and test reaches
 * Kafka through it, so client settings (retries, logging, group timeouts, producer guarantees) are the same
 * everywhere. It holds no connection: each call connects the client it needs and a publisher or member until closed.
 */
export function kafkaBus(opts: KafkaBusOptions): Bus {
  const kafka = new Kafka({
    brokers: [...opts.brokers],
    clientId: opts.clientId,
    ...(opts.ssl ? { ssl: { ...opts.ssl } } : {}),
    ...(opts.sasl ? { sasl: { ...opts.sasl } } : {}),
    logLevel: opts.log ? logLevel.WARN : logLevel.NOTHING,
    // About the 25 s the clients retried before, in steps of at most 1 s (ENDLESS_RETRIES says why).
    retry: { initialRetryTime: 100, maxRetryTime: 1000, retries: 30 },
    logCreator: () => (entry: LogEntry) => {
      const { message, ...extra } = entry.log;
      opts.log?.(levelOf(entry), `${entry.namespace}: ${message}`, extra);
    },
  });
  if (opts.taps) tapClients(kafka, opts.taps);
  const bus: Bus = {
    ensureTopics: (specs) => ensureTopics(kafka, specs),
    topicConfigs: (topic) => topicConfigs(kafka, topic),
    partitionCount: (topic) => partitionCount(kafka, topic),
    offsets: (topic) => partitionOffsets(kafka, [topic]),
    replicas: (topics) => partitionReplicas(kafka, topics),
    deleteTopics: (topics) => deleteTopics(kafka, topics),
    publisher: () => kafkaPublisher(kafka),
    transactionalPublisher: (transactionalId) => kafkaTransactionalPublisher(kafka, transactionalId),
    joinGroup: (options) => joinKafkaGroup(kafka, options),
    groupOffsets: () => groupOffsets(kafka),
    topics: () => listTopics(kafka),
    readTail: (topics, count, onRecord) => readTail(bus, topics, count, onRecord),
    readToEnd: (topic, onRecord, partitions) => readToEnd(bus, topic, onRecord, partitions),
  };
  return bus;
}

/**
 * grantAcls creates ALLOW entries in the broker's authorizer (kafka-acls.sh --add), as a principal that may alter
 * them (a super user); entries that exist already are left as they are.
 */
export async function grantAcls(brokers: readonly string[], acls: readonly KafkaAcl[]): Promise<void> {
  const admin = new Kafka({ brokers: [...brokers], clientId: 'kcm-bus-acls', logLevel: logLevel.NOTHING }).admin();
  await admin.connect();
  try {
    await admin.createAcls({
      acl: acls.map((a) => ({
        principal: a.principal,
        host: '*',
        resourceType: kafkajs.AclResourceTypes[a.resourceType],
        resourceName: a.resourceName,
        resourcePatternType: a.prefixed ? kafkajs.ResourcePatternTypes.PREFIXED : kafkajs.ResourcePatternTypes.LITERAL,
        operation: kafkajs.AclOperationTypes[a.operation],
        permissionType: kafkajs.AclPermissionTypes.ALLOW,
      })),
    });
  } finally {
    await admin.disconnect();
  }
}

/** brokerReady is a readiness probe: true when the cluster answers a metadata request with a controller (over TLS and SASL when given). */
export async function brokerReady(
  brokers: readonly string[],
  security: Pick<KafkaBusOptions, 'ssl' | 'sasl'> = {},
): Promise<boolean> {
  const admin = new Kafka({
    brokers: [...brokers],
    clientId: 'kcm-bus-probe',
    logLevel: logLevel.NOTHING,
    retry: { retries: 0 },
    ...(security.ssl ? { ssl: { ...security.ssl } } : {}),
    ...(security.sasl ? { sasl: { ...security.sasl } } : {}),
  }).admin();
  try {
    await admin.connect();
    const cluster = await admin.describeCluster();
    return cluster.brokers.length > 0 && cluster.controller !== null;
  } catch {
    return false;
  } finally {
    await admin.disconnect().catch(() => undefined);
  }
}
