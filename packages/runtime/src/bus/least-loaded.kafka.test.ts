import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  BrokerPool,
  chooseLeastLoaded,
  leastLoadedFirst,
  OVERDUE_MS,
  loadOf,
  type BrokerState,
} from './least-loaded.kafka.ts';

/**
 * broker is a Broker with `inflight` requests unanswered (sent `age` ms ago, 0 by default) and `pending` queued on
 * each of its two connections.
 */
function broker(o: { inflight?: number; pending?: number; connected?: boolean; age?: number } = {}): BrokerState {
  const queue = () => ({
    inflight: new Map(Array.from({ length: o.inflight ?? 0 }, (_, i) => [i, { createdAt: Date.now() - (o.age ?? 0) }])),
    pending: Array(o.pending ?? 0),
  });
  return {
    connectionPool: { pool: [{ requestQueue: queue() }, { requestQueue: queue() }] },
    isConnected: () => o.connected ?? true,
  };
}

/** FakePool stands for kafkajs's BrokerPool: findBroker reaches a broker, or fails for those in `unreachable`. */
class FakePool {
  reached: string[] = [];
  unreachable = new Set<string>();
  seedBroker = broker();
  reconnected = false;
  readonly brokers: Record<string, BrokerState>;
  constructor(brokers: Record<string, BrokerState>) {
    this.brokers = brokers;
  }
  async findBroker({ nodeId }: { nodeId: string }): Promise<BrokerState> {
    this.reached.push(nodeId);
    if (this.unreachable.has(nodeId)) throw new Error(`broker ${nodeId} refused`);
    return this.brokers[nodeId]!;
  }
  async connect(): Promise<void> {
    this.reconnected = true;
  }
}

function patchedPool(brokers: Record<string, BrokerState>) {
  class Patched extends FakePool {}
  chooseLeastLoaded(Patched as unknown as typeof BrokerPool);
  return new Patched(brokers) as Patched & {
    withBroker<T>(cb: (a: { nodeId: string; broker: BrokerState }) => Promise<T>): Promise<T | null>;
    findConnectedBroker(): Promise<BrokerState>;
  };
}

describe('loadOf', () => {
  it('counts the requests unanswered and queued over every connection of the broker', () => {
    assert.equal(loadOf(broker({ inflight: 3, pending: 1 }), Date.now()).inFlight, 8);
    assert.equal(loadOf(broker(), Date.now()).inFlight, 0);
    assert.equal(
      loadOf({ isConnected: () => false }, Date.now()).inFlight,
      0,
      'a broker not yet connected has no queues',
    );
  });
});

describe('leastLoadedFirst', () => {
  it('orders connected brokers by their requests in flight, then the others (NetworkClient.leastLoadedNode)', () => {
    const brokers = { 1: broker({ inflight: 7 }), 2: broker({ connected: false }), 3: broker({ inflight: 1 }) };
    assert.deepEqual(leastLoadedFirst(brokers), ['3', '1', '2']);
  });

  it('puts a broker holding an overdue request last, however few it holds (a stopped one)', () => {
    const brokers = { 1: broker({ inflight: 1, age: OVERDUE_MS + 500 }), 2: broker({ inflight: 3 }) };
    assert.deepEqual(leastLoadedFirst(brokers), ['2', '1']);
    assert.deepEqual([loadOf(brokers[1], Date.now()).overdue, loadOf(brokers[2], Date.now()).overdue], [2, 0]);
  });

  it('keeps a random order among brokers equally loaded, as kafkajs shuffles them', () => {
    const brokers = { 1: broker(), 2: broker(), 3: broker() };
    const firsts = new Set(Array.from({ length: 60 }, () => leastLoadedFirst(brokers)[0]));
    assert.deepEqual([...firsts].sort(), ['1', '2', '3']);
  });
});

describe('chooseLeastLoaded', () => {
  it('given a stopped broker holding unanswered requests, then a lookup goes to a broker that answers', async () => {
    const pool = patchedPool({ 1: broker({ inflight: 6 }), 2: broker({ inflight: 1 }), 3: broker({ inflight: 1 }) });
    for (let i = 0; i < 20; i++) {
      const { nodeId } = (await pool.withBroker(async (a) => a))!;
      assert.notEqual(nodeId, '1');
    }
  });

  it('given a callback that fails, then the next broker is tried, and null when none succeeds', async () => {
    const pool = patchedPool({ 1: broker({ inflight: 2 }), 2: broker() });
    const tried: string[] = [];
    const found = await pool.withBroker(async ({ nodeId }) => {
      tried.push(nodeId);
      if (nodeId === '2') throw new Error('not the coordinator');
      return nodeId;
    });
    assert.deepEqual([found, tried], ['1', ['2', '1']]);
    assert.equal(await pool.withBroker(async () => Promise.reject(new Error('no'))), null);
  });

  it('given an empty pool, then withBroker throws as kafkajs does', async () => {
    await assert.rejects(
      patchedPool({}).withBroker(async () => 1),
      { name: 'KafkaJSBrokerNotFound' },
    );
  });

  it('given brokers, then findConnectedBroker is the least loaded one that is reached', async () => {
    const pool = patchedPool({ 1: broker({ inflight: 9 }), 2: broker({ inflight: 1 }), 3: broker({ inflight: 2 }) });
    pool.unreachable.add('2');
    assert.equal(await pool.findConnectedBroker(), pool.brokers['3']);
    assert.deepEqual(pool.reached, ['2', '3']);
  });

  it('given no broker reached, then findConnectedBroker reconnects and is the seed broker, as kafkajs', async () => {
    const pool = patchedPool({ 1: broker() });
    pool.unreachable.add('1');
    assert.equal(await pool.findConnectedBroker(), pool.seedBroker);
    assert.equal(pool.reconnected, true);
  });

  it("patches kafkajs's BrokerPool once", () => {
    chooseLeastLoaded();
    const withBroker = BrokerPool.prototype.withBroker;
    chooseLeastLoaded();
    assert.equal(BrokerPool.prototype.withBroker, withBroker);
  });
});
