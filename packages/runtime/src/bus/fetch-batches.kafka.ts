import { createRequire } from 'node:module';

/** FetchedBatch is what kafkajs's ConsumerGroup.fetch returns for each partition of a fetch (its Batch). */
type FetchedBatch = { readonly rawMessages: readonly unknown[] };

type Fetch<B extends FetchedBatch = FetchedBatch> = (this: unknown, nodeId: number) => Promise<B[]>;

/** ConsumerGroupClass is the part of kafkajs's ConsumerGroup (src/consumer/consumerGroup.js) the change touches. */
type ConsumerGroupClass = { prototype: { fetch: Fetch } };

/**
 * ConsumerGroup is kafkajs 2.2.4's consumer group, loaded from its source (the package has no `exports` map, so the
 * path is stable for the version package-lock pins): every consumer's runner fetches through its prototype.
 */
export const ConsumerGroup = createRequire(import.meta.url)(
  'kafkajs/src/consumer/consumerGroup.js',
) as ConsumerGroupClass;

/**
 * withoutEmptyBatches is a fetch that returns only the partitions that brought records (a batch of transaction
 * markers or aborted records alone is kept: kafkajs resolves its offsets and ends its batch, which the progress
 * commits follow). kafkajs returns a Batch for every partition a fetch asked for, and its runner takes each through
 * its worker queue, computes the batch's lags and awaits a heartbeat for it, records or not, so a member reading 30
 * partitions (reconciler-rc: pods, ReplicationControllers, ReplicaSets, Deployments and the results, 6 each) paid for
 * 30 batches of every fetch that brought one record. With none kept, the runner heartbeats once for the fetch, as it
 * does for a fetch that returns nothing (runner.fetch).
 */
export function withoutEmptyBatches<B extends FetchedBatch>(fetch: Fetch<B>): Fetch<B> {
  return async function (this: unknown, nodeId: number) {
    const batches = await fetch.call(this, nodeId);
    return batches.filter((batch) => batch.rawMessages.length > 0);
  };
}

/** fetchWithoutEmptyBatches makes every consumer of the class fetch withoutEmptyBatches. Idempotent. */
export function fetchWithoutEmptyBatches(group: ConsumerGroupClass = ConsumerGroup): void {
  const proto = group.prototype as ConsumerGroupClass['prototype'] & { [PATCHED]?: true };
  if (proto[PATCHED]) return;
  proto.fetch = withoutEmptyBatches(proto.fetch);
  proto[PATCHED] = true;
}

const PATCHED = Symbol('kcm-bus: fetch without empty batches');
