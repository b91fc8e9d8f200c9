import { Kafka, logLevel, type KafkaConfig, type LogEntry } from 'kafkajs';

/** KafkaOptions says where the bus is and who is talking to it. */
export type KafkaOptions = {
  readonly brokers: readonly string[];
  readonly clientId: string;
  /** Receives kafkajs's log entries (warnings and errors); silent when absent. */
  readonly log?: (level: 'error' | 'warn' | 'info' | 'debug', message: string, extra: Record<string, unknown>) => void;
};

const LEVELS: Readonly<Record<number, 'error' | 'warn' | 'info'>> = {
  [logLevel.ERROR]: 'error', [logLevel.WARN]: 'warn', [logLevel.INFO]: 'info',
};

/** levelOf demotes the connection's per-response errors (e.g. "coordinator is loading"): kafkajs retries them. */
function levelOf(entry: LogEntry): 'error' | 'warn' | 'info' | 'debug' {
  if (entry.namespace === 'Connection' && entry.log.message.startsWith('Response')) return 'debug';
  return LEVELS[entry.level] ?? 'info';
}

/**
 * GROUP_TIMEOUTS are every consumer group's session.timeout.ms and heartbeat.interval.ms. kafkajs's 30 s session
 * means a member killed with -9 holds its partitions for 30 s before the group rebalances to its replacement
 * (S7 measured 24-30 s); 10 s is inside the broker's group.min.session.timeout.ms (6 s) and upstream
 * kube-controller-manager's 15 s lease, with three heartbeats per session as Kafka advises.
 */
export const GROUP_TIMEOUTS = { sessionTimeout: 10_000, heartbeatInterval: 3000 } as const;

/**
 * kafkaClient is the one place that constructs kafkajs: every service, tool and test reaches Kafka
 * through it, so client settings (retries, logging) are the same everywhere.
 */
export function kafkaClient(opts: KafkaOptions): Kafka {
  const config: KafkaConfig = {
    brokers: [...opts.brokers],
    clientId: opts.clientId,
    logLevel: opts.log ? logLevel.WARN : logLevel.NOTHING,
    retry: { initialRetryTime: 100, retries: 8 },
    logCreator: () => (entry: LogEntry) => {
      const { message, ...extra } = entry.log;
      opts.log?.(levelOf(entry), `${entry.namespace}: ${message}`, extra);
    },
  };
  return new Kafka(config);
}

/** brokerReady is a readiness probe: true when the cluster answers a metadata request with a controller. */
export async function brokerReady(brokers: readonly string[]): Promise<boolean> {
  const admin = new Kafka({ brokers: [...brokers], clientId: 'kcm-bus-probe', logLevel: logLevel.NOTHING, retry: { retries: 0 } }).admin();
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

/** Kafka is kafkajs's client type, re-exported so that other modules need not import kafkajs. */
export type { Kafka, KafkaMessage, Producer, Consumer } from 'kafkajs';
