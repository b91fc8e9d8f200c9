import { createRequire } from 'node:module';

/** Queue is the part of kafkajs's RequestQueue (src/network/requestQueue) that says what a connection waits for. */
type Queue = {
  readonly inflight: { readonly size: number; values(): Iterable<{ readonly createdAt: number }> };
  readonly pending: readonly unknown[];
};

/**
 * OVERDUE_MS: a request in flight longer than this was not answered as a live broker answers: a fetch waits at most
 * maxWaitTimeInMs (5 s) for records, and the others are answered sooner (a heartbeat held for a lost follower, up to
 * offsets.commit.timeout.ms, 5 s, too).
 */
export const OVERDUE_MS = 6000;

/** BrokerState is the part of kafkajs's Broker (src/broker/index.js) whose connections' queues are read. */
export type BrokerState = {
  readonly connectionPool?: { readonly pool?: readonly { readonly requestQueue?: Queue }[] };
  isConnected(): boolean;
};

/** PoolState is what the change reads of kafkajs's BrokerPool: the brokers by node id, how to reach one, the seed. */
type PoolState = {
  readonly brokers: Readonly<Record<string, BrokerState>>;
  readonly seedBroker: BrokerState;
  findBroker(args: { nodeId: string }): Promise<BrokerState>;
  connect(): Promise<void>;
};
type WithBroker = <T>(
  this: PoolState,
  callback: (args: { nodeId: string; broker: BrokerState }) => Promise<T>,
) => Promise<T | null>;
type BrokerPoolProto = { withBroker: WithBroker; findConnectedBroker(this: PoolState): Promise<BrokerState> };

const require = createRequire(import.meta.url);

/** BrokerPool is kafkajs 2.2.4's broker pool, loaded from its source (the package has no `exports` map). */
export const BrokerPool = require('kafkajs/src/cluster/brokerPool.js') as { prototype: BrokerPoolProto };

/** KafkaJSBrokerNotFound is kafkajs's error for a broker not in the pool, which its retriers know. */
const { KafkaJSBrokerNotFound } = require('kafkajs/src/errors.js') as {
  KafkaJSBrokerNotFound: new (message: string) => Error;
};

/**
 * Load is what a broker's connections wait for: the requests sent and not answered and those queued (inFlight), and
 * of the sent ones, those unanswered for more than OVERDUE_MS (overdue).
 */
export type Load = { readonly inFlight: number; readonly overdue: number };

/** loadOf reads a broker's Load at `now` from its connections' request queues, in one walk. */
export function loadOf(broker: BrokerState, now: number): Load {
  let inFlight = 0;
  let overdue = 0;
  for (const { requestQueue } of broker.connectionPool?.pool ?? []) {
    if (requestQueue === undefined) continue;
    inFlight += requestQueue.inflight.size + requestQueue.pending.length;
    for (const request of requestQueue.inflight.values()) if (now - request.createdAt > OVERDUE_MS) overdue++;
  }
  return { inFlight, overdue };
}

/**
 * leastLoadedFirst orders node ids as the Java client's NetworkClient.leastLoadedNode chooses one: connected brokers
 * before the others, and among those the fewest requests in flight first; ties keep a random order, as kafkajs
 * shuffles them, so lookups spread over the cluster. A broker holding an overdue request comes after all of them:
 * Java's client disconnects from a node whose request timed out, and a stopped broker's long-poll fetch counts one
 * request in flight, as a live one's does, until it is overdue.
 */
export function leastLoadedFirst(
  brokers: Readonly<Record<string, BrokerState>>,
  random: () => number = Math.random,
  now: number = Date.now(),
): string[] {
  const rank = (id: string): number => {
    const { inFlight, overdue } = loadOf(brokers[id]!, now);
    return (overdue > 0 ? 2e9 : 0) + (brokers[id]!.isConnected() ? 0 : 1e9) + inFlight;
  };
  return Object.keys(brokers)
    .map((id) => ({ id, rank: rank(id), tie: random() }))
    .sort((a, b) => a.rank - b.rank || a.tie - b.tie)
    .map(({ id }) => id);
}

/**
 * chooseLeastLoaded makes kafkajs 2.2.4 send the requests that may go to any broker (Metadata, FindCoordinator) to
 * the least loaded one, as the Java client does, where kafkajs picks one at random (BrokerPool.withBroker,
 * findConnectedBroker). A broker stopped without closing its connections (SIGSTOP, a long pause) answers nothing for
 * requestTimeout (30 s) and gathers the requests sent to it meanwhile; a random choice sent a member's lookup of its
 * group's moved coordinator there one time in three, and the member waited the 30 s, past its session. Each method
 * tries the brokers in that order as kafkajs does in its own: the callback on each until one succeeds (null when
 * none does); the first broker that is connected or connects (the seed broker, reconnected, when none does).
 * Idempotent: the prototype is patched once.
 */
export function chooseLeastLoaded(pool: { prototype: BrokerPoolProto } = BrokerPool): void {
  const proto = pool.prototype as BrokerPoolProto & { [PATCHED]?: true };
  if (proto[PATCHED]) return;
  proto.withBroker = async function <T>(
    this: PoolState,
    callback: (args: { nodeId: string; broker: BrokerState }) => Promise<T>,
  ): Promise<T | null> {
    const order = leastLoadedFirst(this.brokers);
    if (order.length === 0) throw new KafkaJSBrokerNotFound('No brokers in the broker pool');
    for (const nodeId of order) {
      const broker = await this.findBroker({ nodeId });
      try {
        return await callback({ nodeId, broker });
      } catch {
        // the next broker, as kafkajs's own withBroker
      }
    }
    return null;
  };
  proto.findConnectedBroker = async function (this: PoolState): Promise<BrokerState> {
    for (const nodeId of leastLoadedFirst(this.brokers)) {
      try {
        return await this.findBroker({ nodeId });
      } catch {
        // the next broker, as kafkajs's own findConnectedBroker
      }
    }
    await this.connect();
    return this.seedBroker;
  };
  proto[PATCHED] = true;
}

const PATCHED = Symbol('kcm-bus: the least loaded broker chosen');
