import { Batcher } from '@kcm-bus/runtime/bus/batcher.ts';
import { publisherFenced, type Bus } from '@kcm-bus/runtime/bus/bus.ts';
import type { TopicRecords } from '@kcm-bus/runtime/bus/produce-limits.ts';
import type { WatchedKind } from '@kcm-bus/schemas/kinds.ts';

/** WatcherTransactions is the watcher's one transactional publisher, shared by its kinds. */
export type WatcherTransactions = {
  /** send resolves once a committed transaction holds the batches. */
  readonly send: (batches: readonly TopicRecords[]) => Promise<void>;
  readonly close: () => Promise<void>;
};

/**
 * watcherTransactionalId names the watcher's transactions after the kinds it watches: a newer watcher of the same
 * kinds fences the older one, and watchers of disjoint kinds run side by side.
 */
export function watcherTransactionalId(kinds: readonly WatchedKind[]): string {
  return `kcm-bus-watcher-${kinds.map((k) => k.plural).sort().join('.')}`;
}

/**
 * openWatcherTransactions opens the watcher's transactional publisher (fencing any older watcher of the same kinds).
 * What the kinds publish while a transaction is in flight, or within one turn of the event loop, goes in the next
 * transaction together, begun no sooner than txnGapMs after the last one ended (see PumpOptions.txnGapMs): an idle
 * watcher's watermarks, due for every kind at the same poll, are one transaction, not one per kind. A shared
 * transaction that fails other than by fencing is tried again per kind, each alone: one kind's records that no
 * transaction takes fail only that kind's publication. The kinds' batches go to sendTopics as they came (the
 * client joins a topic's batches in order; a kind has one publication in flight, so its topics appear once).
 */
export async function openWatcherTransactions(bus: Bus, kinds: readonly WatchedKind[], txnGapMs: number, now: () => number): Promise<WatcherTransactions> {
  const publisher = await bus.transactionalPublisher(watcherTransactionalId(kinds));
  let endedAt = -Infinity;
  const batcher = new Batcher<readonly TopicRecords[]>(async (items) => {
    try {
      await publisher.sendTopics(items.flat());
    } finally {
      endedAt = now();
    }
  }, { gather: () => nextTurnAfter(endedAt + txnGapMs - now()), alone: (err) => !publisherFenced(err) });
  return { send: (batches) => batcher.push(batches), close: () => publisher.close() };
}

/** nextTurnAfter resolves after waitMs, or at the next turn of the event loop when there is nothing to wait. */
function nextTurnAfter(waitMs: number): Promise<void> {
  return new Promise((resolve) => (waitMs > 0 ? setTimeout(resolve, waitMs) : setImmediate(resolve)));
}
