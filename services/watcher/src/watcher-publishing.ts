import { hostname } from 'node:os';
import {
  Batcher,
  publisherFenced,
  type Bus,
  type ProducedOffsets,
  type TransactionalPublisher,
  OversizedRecordError,
  type TopicRecords,
} from '@kcm-bus/runtime/bus/index.ts';
import { ExponentialBackoff } from '@kcm-bus/runtime/flowcontrol/index.ts';
import type { WatchedKind } from '@kcm-bus/schemas/kinds.ts';
import { WATCHER_EPOCHS_TOPIC } from '@kcm-bus/schemas/watch-record.ts';

/**
 * WatcherPublishing is how the watcher writes: what the watch streams bring goes to the history topics through an
 * idempotent producer, each record stamped with the watcher's epoch; what must land whole (a relist with its
 * synthetic deletes, a checkpoint of the state topics) goes in a transaction of the watcher's transactional id.
 */
export type WatcherPublishing = {
  /** epoch is this watcher's: one past the offset of its claim in WATCHER_EPOCHS_TOPIC, larger than any older watcher's. */
  readonly epoch: string;
  /** history sends records (what the kinds send within one turn of the event loop goes in one request). */
  readonly history: (batches: readonly TopicRecords[]) => Promise<ProducedOffsets>;
  /** inTransaction sends records in one transaction, one transaction at a time, txnGapMs after the last one ended. */
  readonly inTransaction: (batches: readonly TopicRecords[]) => Promise<ProducedOffsets>;
  readonly close: () => Promise<void>;
};

/**
 * watcherTransactionalId names the watcher's transactions after the kinds it watches: a newer watcher of the same
 * kinds fences the older one, and watchers of disjoint kinds run side by side.
 */
export function watcherTransactionalId(kinds: readonly WatchedKind[]): string {
  return `kcm-bus-watcher-${kinds
    .map((k) => k.plural)
    .sort()
    .join('.')}`;
}

/** EPOCHS_TOPIC_CONFIGS keep the latest claim of each transactional id; offsets, the epochs, only grow. */
const EPOCHS_TOPIC_CONFIGS = { 'cleanup.policy': 'compact' } as const;

/**
 * openWatcherPublishing opens the transactional producer (which fences an older watcher of the same kinds: its next
 * transaction, a checkpoint at the latest, is refused and it exits), claims the epoch in a transaction of its own,
 * and opens the idempotent producer of the history. A transaction that fails other than by fencing leaves nothing
 * visible; the caller sends it again.
 */
export async function openWatcherPublishing(
  bus: Bus,
  kinds: readonly WatchedKind[],
  txnGapMs: number,
  now: () => number,
): Promise<WatcherPublishing> {
  await bus.ensureTopics([{ topic: WATCHER_EPOCHS_TOPIC, partitions: 1, configs: EPOCHS_TOPIC_CONFIGS }]);
  const id = watcherTransactionalId(kinds);
  const transactional = await bus.transactionalPublisher(id);
  const epoch = await startupRetried(() => claimEpoch(transactional, id));
  const idempotent = await bus.publisher();
  const history = new Batcher<readonly TopicRecords[], ProducedOffsets>(
    (items) => idempotent.sendTopics(items.flat()),
    {
      gather: () => new Promise((resolve) => setImmediate(resolve)),
      alone: (err) => err instanceof OversizedRecordError,
    },
  );
  return {
    epoch,
    history: (batches) => history.push(batches),
    inTransaction: serialTransactions(transactional, txnGapMs, now),
    close: async () => {
      await idempotent.close();
      await transactional.close();
    },
  };
}

/**
 * claimEpoch writes the watcher's claim (who, when) under its transactional id; its epoch is the claim's offset plus
 * one, so that every watcher's is above the 0 of records written before epochs.
 */
async function claimEpoch(transactional: TransactionalPublisher, id: string): Promise<string> {
  const claim = `${hostname()} pid ${process.pid} at ${new Date().toISOString()}`;
  const [produced] = await transactional.send(WATCHER_EPOCHS_TOPIC, [
    { key: id, value: Buffer.from(claim), partition: 0 },
  ]);
  if (produced === undefined) throw new Error(`the epoch claim of ${id} got no offset`);
  return String(BigInt(produced.lastOffset) + 1n);
}

/**
 * STARTUP_BACKOFF paces the watcher's first transactions: on a fresh cluster the topics it just created may not be
 * known yet to the partition leaders' transaction checks ("This server does not host this topic-partition").
 */
const STARTUP_BACKOFF = { durationMs: 200, factor: 2, jitter: 0.5, capMs: 5000 } as const;

/** startupRetried runs a startup step until it succeeds, 10 tries at most; a fenced publisher is not retried. */
export async function startupRetried<T>(step: () => Promise<T>): Promise<T> {
  const backoff = new ExponentialBackoff(STARTUP_BACKOFF);
  for (let attempt = 1; ; attempt++) {
    try {
      return await step();
    } catch (err) {
      if (attempt >= 10 || publisherFenced(err)) throw err;
      await new Promise((resolve) => setTimeout(resolve, backoff.next()));
    }
  }
}

/**
 * serialTransactions runs one transaction at a time, each begun no sooner than txnGapMs after the last one ended:
 * the broker writes a commit's markers after answering it, and a transaction begun before is refused
 * (CONCURRENT_TRANSACTIONS) and retried by the client, an AddPartitionsToTxn and a metadata refresh each time.
 */
function serialTransactions(
  publisher: TransactionalPublisher,
  txnGapMs: number,
  now: () => number,
): WatcherPublishing['inTransaction'] {
  let last: Promise<unknown> = Promise.resolve();
  let endedAt = -Infinity;
  return (batches) => {
    const sent = last.then(async () => {
      const wait = endedAt + txnGapMs - now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      try {
        return await publisher.sendTopics(batches);
      } finally {
        endedAt = now();
      }
    });
    last = sent.catch(() => undefined);
    return sent;
  };
}
