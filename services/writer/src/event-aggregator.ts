import type { Clock } from '@kcm-bus/runtime/workqueue/index.ts';
import { type CoreEvent, eventAggregatorByReason, getEventKey } from './core-event.ts';
import { LruCache } from './lru-cache.ts';

/** AGGREGATE_MESSAGE_PREFIX is client-go's EventAggregatorByReasonMessageFunc prefix. */
export const AGGREGATE_MESSAGE_PREFIX = '(combined from similar events): ';

type AggregateRecord = { readonly localKeys: Set<string>; lastTimestamp: number };

/**
 * EventAggregator combines events that differ only in message: once maxEvents distinct messages were seen for one
 * source, object, type and reason within maxIntervalMs of each other, further ones become a single aggregate event
 * "(combined from similar events): <message>" whose cache key is the aggregate key, so it is counted up (patched)
 * rather than created again. Mirrors client-go EventAggregator.EventAggregate; its windows run on the injected
 * clock, while the aggregate event's name and timestamps keep the recorded event's time (see makeEvent).
 */
export class EventAggregator {
  readonly #cache: LruCache<string, AggregateRecord>;
  readonly #maxEvents: number;
  readonly #maxIntervalMs: number;
  readonly #clock: Clock;

  constructor(lruCacheSize: number, maxEvents: number, maxIntervalMs: number, clock: Clock) {
    this.#cache = new LruCache(lruCacheSize);
    this.#maxEvents = maxEvents;
    this.#maxIntervalMs = maxIntervalMs;
    this.#clock = clock;
  }

  /** size is the number of aggregate records held (at most lruCacheSize). */
  get size(): number {
    return this.#cache.size;
  }

  /** eventAggregate returns the event to record (the same or the aggregate) and its cache key for the logger. */
  eventAggregate(event: CoreEvent): { readonly event: CoreEvent; readonly key: string } {
    const now = this.#clock.now();
    const { aggregateKey, localKey } = eventAggregatorByReason(event);
    let record = this.#cache.get(aggregateKey);
    if (!record || now - record.lastTimestamp > this.#maxIntervalMs)
      record = { localKeys: new Set(), lastTimestamp: now };
    record.localKeys.add(localKey);
    record.lastTimestamp = now;
    this.#cache.add(aggregateKey, record);
    if (record.localKeys.size < this.#maxEvents) return { event, key: getEventKey(event) };
    record.localKeys.delete(record.localKeys.values().next().value as string);
    const aggregate: CoreEvent = {
      ...event,
      count: 1,
      firstTimestamp: event.lastTimestamp,
      message: AGGREGATE_MESSAGE_PREFIX + event.message,
      resourceVersion: null,
    };
    return { event: aggregate, key: aggregateKey };
  }
}
