import { setTimeout as sleep } from 'node:timers/promises';
import { kafkaBus } from '@kcm-bus/runtime/bus/bus.kafka.ts';
import type { Bus } from '@kcm-bus/runtime/bus/index.ts';
import { restartPart } from '@kcm-bus/harness/restart.ts';
import { waitFor } from '@kcm-bus/harness/wait.ts';
import { kafkaNodes, type KafkaNode } from '@kcm-bus/stack/kafka-nodes.ts';
import { activeController } from '@kcm-bus/stack/kafka-quorum.ts';
import { locateAll } from '@kcm-bus/stack/obtain-all.ts';
import { runningPid } from '@kcm-bus/stack/procs.ts';
import type { BenchContext } from '../../lib/scenario.ts';

/** BROKER_PAUSE_S is how long a SIGSTOPped broker stays stopped: past its session (broker.session.timeout.ms, 9 s). */
export const BROKER_PAUSE_S = 30;

/**
 * BrokerFaults are the faults of a replicated Kafka cluster's nodes (the bench stack with KCM_BUS_KAFKA_NODES=3). A
 * fault starts at once and runs its course in the background (a killed broker comes back as its supervisor would
 * start it, a stopped one is continued, a rolling restart goes node by node), so that a cycle times what the cluster
 * hides; recovered() waits until it has run its course and every partition has all its replicas in sync again.
 */
export class BrokerFaults {
  readonly #ctx: BenchContext;
  readonly #bus: Bus;
  #running: Promise<void> = Promise.resolve();

  constructor(ctx: BenchContext) {
    this.#ctx = ctx;
    this.#bus = kafkaBus({ brokers: ctx.e.kafkaBrokers, clientId: 'kcm-bus-bench-chaos' });
  }

  /** killBusiest kills -9 the node leading the most kcm-bus partitions, and starts it again. */
  async killBusiest(): Promise<void> {
    this.#kill(await this.#busiest(), 'the busiest leader');
  }

  /** pauseBusiest stops the node leading the most kcm-bus partitions for BROKER_PAUSE_S, then continues it. */
  async pauseBusiest(): Promise<void> {
    const node = await this.#busiest();
    const pid = runningPid(this.#ctx.stack.dir, node.part) ?? 0;
    process.kill(pid, 'SIGSTOP');
    this.#background(`${node.part} (the busiest leader) stopped ${BROKER_PAUSE_S} s and continued`, async () => {
      try {
        await sleep(BROKER_PAUSE_S * 1000);
      } finally {
        process.kill(pid, 'SIGCONT');
      }
    });
  }

  /** killController kills -9 the node leading the KRaft controller quorum, and starts it again. */
  async killController(): Promise<void> {
    this.#kill(await activeController(this.#ctx.stack, locateAll()), 'the active controller');
  }

  /** rollingRestart restarts every node in turn (SIGTERM: a controlled shutdown), each once the cluster is whole again. */
  async rollingRestart(): Promise<void> {
    this.#background('every broker restarted, one at a time', async () => {
      for (const node of kafkaNodes(this.#ctx.stack)) {
        await restartPart(this.#ctx.stack, node.part);
        await this.#inSync();
      }
    });
  }

  /** recovered waits for the fault under way to run its course and for every kcm-bus partition to be in sync again. */
  async recovered(): Promise<void> {
    await this.#running;
    await this.#inSync();
  }

  /** #busiest is the node leading the most partitions of kcm-bus's topics. */
  async #busiest(): Promise<KafkaNode> {
    const topics = (await this.#bus.topics()).filter((t) => t.startsWith('kcm.'));
    const led = new Map<number, number>();
    for (const p of await this.#bus.replicas(topics)) led.set(p.leader, (led.get(p.leader) ?? 0) + 1);
    const [id] = [...led].reduce((a, b) => (b[1] > a[1] ? b : a), [0, -1]);
    const node = kafkaNodes(this.#ctx.stack).find((n) => n.id === id);
    if (!node) throw new Error(`no node of the bench stack leads a kcm-bus partition (leaders: ${[...led.keys()]})`);
    return node;
  }

  /** #inSync waits until every partition of every topic has all its replicas in sync. */
  async #inSync(): Promise<void> {
    await waitFor(
      'every partition to have all its replicas in sync',
      async () => (await this.#bus.replicas(await this.#bus.topics())).every((p) => p.isr.length === p.replicas.length),
      { timeoutMs: 300_000, intervalMs: 1000 },
    );
  }

  /** #kill kills -9 a node and starts it again, in the background, as its supervisor would. */
  #kill(node: KafkaNode, which: string): void {
    this.#background(`${node.part} (${which}) killed -9 and started again`, () =>
      restartPart(this.#ctx.stack, node.part, { graceMs: 0 }),
    );
  }

  #background(what: string, fault: () => Promise<void>): void {
    const started = performance.now();
    this.#running = fault().then(() =>
      this.#ctx.log(`chaos: ${what}, in ${((performance.now() - started) / 1000).toFixed(1)} s`),
    );
  }
}
