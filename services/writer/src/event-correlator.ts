import type { MutationEvent } from '@kcm-bus/runtime/mutation/index.ts';
import type { Clock } from '@kcm-bus/runtime/workqueue/index.ts';
import { type CoreEvent, getEventKey, makeEvent } from './core-event.ts';
import { EventAggregator } from './event-aggregator.ts';
import { EventSourceObjectSpamFilter } from './event-spam-filter.ts';
import { LruCache } from './lru-cache.ts';

/** EventPatch is the strategic merge patch of a repeated event: client-go's two-way patch reduces to these fields. */
export type EventPatch = { readonly count: number; readonly lastTimestamp: string; readonly message?: string };

/**
 * EventWrite is what to do with a recorded event: Create a new Event, Patch the existing one (and, if the patch
 * meets 404, create `event` instead, as client-go's recordEvent does), or Drop it (spam filter).
 */
export type EventWrite =
  | { readonly type: 'Create'; readonly event: CoreEvent }
  | { readonly type: 'Patch'; readonly event: CoreEvent; readonly patch: EventPatch }
  | { readonly type: 'Drop' };

/**
 * CorrelatorOptions are client-go's CorrelatorOptions; the defaults are NewEventCorrelator's: LRU 4096, spam burst
 * 25 refilled at 1 per 5 minutes, aggregation after 10 distinct messages within 10 minutes.
 */
export type CorrelatorOptions = {
  readonly lruCacheSize: number;
  readonly burstSize: number;
  readonly qps: number;
  readonly maxEvents: number;
  readonly maxIntervalMs: number;
};

/** DEFAULT_CORRELATOR_OPTIONS are client-go's defaults (events_cache.go constants). */
export const DEFAULT_CORRELATOR_OPTIONS: CorrelatorOptions = {
  lruCacheSize: 4096,
  burstSize: 25,
  qps: 1 / 300,
  maxEvents: 10,
  maxIntervalMs: 600_000,
};

type EventLog = {
  readonly count: number;
  readonly firstTimestamp: string;
  readonly name: string;
  readonly resourceVersion: string | null;
};

/**
 * EventCorrelator decides how each RecordEvent reaches the apiserver, with client-go's recorder behaviour: similar
 * events aggregate, identical ones count up on one Event (a patch instead of a new object), and each source and
 * object gets 25 events, then 1 per 5 minutes. Its memory is the writer process's (as upstream's is the
 * controller's): a restart forgets it. Mirrors client-go EventCorrelator (tools/record/events_cache.go).
 */
export class EventCorrelator {
  readonly #aggregator: EventAggregator;
  readonly #spamFilter: EventSourceObjectSpamFilter;
  readonly #logs: LruCache<string, EventLog>;

  constructor(clock: Clock, options: CorrelatorOptions = DEFAULT_CORRELATOR_OPTIONS) {
    this.#aggregator = new EventAggregator(options.lruCacheSize, options.maxEvents, options.maxIntervalMs, clock);
    this.#spamFilter = new EventSourceObjectSpamFilter(options.lruCacheSize, options.burstSize, options.qps, clock);
    this.#logs = new LruCache(options.lruCacheSize);
  }

  /**
   * correlate takes a recorded event and its time (the mutation's createdAt, RFC 3339) and says what to write:
   * aggregate, then observe (dedup), then filter, in EventCorrelator.EventCorrelate's order. A Patch when the
   * observed event's count is above 1, as recordToSink decides.
   */
  correlate(recorded: MutationEvent, time: string): EventWrite {
    const aggregated = this.#aggregator.eventAggregate(makeEvent(recorded, time));
    const observed = this.#eventObserve(aggregated.event, aggregated.key);
    if (this.#spamFilter.filter(observed.event)) return { type: 'Drop' };
    return observed.patch
      ? { type: 'Patch', event: observed.event, patch: observed.patch }
      : { type: 'Create', event: observed.event };
  }

  /**
   * updateState records what the server holds after a successful write (name, count, resourceVersion), so the next
   * identical event patches it. Mirrors EventCorrelator.UpdateState.
   */
  updateState(event: CoreEvent): void {
    this.#logs.add(getEventKey(event), {
      count: event.count,
      firstTimestamp: event.firstTimestamp,
      name: event.name,
      resourceVersion: event.resourceVersion,
    });
  }

  /** cacheSizes are the entries of the three LRU caches, each bounded by lruCacheSize (the writer's memory under event floods). */
  cacheSizes(): { readonly aggregator: number; readonly spamFilter: number; readonly logs: number } {
    return { aggregator: this.#aggregator.size, spamFilter: this.#spamFilter.size, logs: this.#logs.size };
  }

  /** eventObserve counts an event up on the last observation under key, or starts one. Mirrors eventLogger.eventObserve. */
  #eventObserve(event: CoreEvent, key: string): { readonly event: CoreEvent; readonly patch: EventPatch | null } {
    const last = this.#logs.get(key);
    let observed = event;
    let patch: EventPatch | null = null;
    if (last && last.count > 0) {
      observed = {
        ...event,
        name: last.name,
        resourceVersion: last.resourceVersion,
        firstTimestamp: last.firstTimestamp,
        count: last.count + 1,
      };
      patch = {
        count: observed.count,
        lastTimestamp: observed.lastTimestamp,
        ...(observed.message === '' ? {} : { message: observed.message }),
      };
    }
    this.#logs.add(key, {
      count: observed.count,
      firstTimestamp: observed.firstTimestamp,
      name: observed.name,
      resourceVersion: observed.resourceVersion,
    });
    return { event: observed, patch };
  }
}
