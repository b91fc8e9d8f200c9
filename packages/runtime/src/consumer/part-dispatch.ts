import type { BusRecord, TopicPartition } from '../bus/bus.ts';
import type { Serde } from '../codec/serde.ts';
import type { Watermarks } from './watermarks.ts';
import type { Signing } from '../signing/signing.ts';
import type { GroupPart } from './controller-group-options.ts';
import { routeRecord, type Routed } from './record-route.ts';

/** Dispatch is one record on its way to the parts: where it is, the input it belongs to (canonical), whether live. */
export type Dispatch = {
  readonly tp: TopicPartition;
  readonly topic: string;
  readonly record: BusRecord;
  readonly live: boolean;
};

/**
 * dispatchResult decodes a result once, refused unless the writer signed it, and tells every part (each controller
 * takes only its own mutations' results).
 */
export async function dispatchResult(
  parts: readonly GroupPart[],
  results: { readonly serde: Pick<Serde, 'decode'>; readonly signing: Signing },
  d: Dispatch,
): Promise<void> {
  const routed = await routeRecord(results.serde, results.signing, d.tp.topic, d.tp.partition, d.record, d.live);
  if (routed.kind === 'result') for (const p of parts) await p.controller.onResult(routed.result, routed.cause, d.live);
}

/**
 * dispatchInput decodes an input record once per distinct reader serde among the parts that read its input (parts
 * with the same view share one), and hands it to each of them: an event to its store and handlers, a watermark to its
 * clock. A record is an implicit watermark: the watcher publishes a kind in the order it read it, so everything of
 * the partition it read before the record's time is published before it (Watermarks, observed once for all parts).
 * The cause names the record where it is (a history record by its history offset); the controllers hear of it under
 * the input's name, its state topic, whichever of the input's topics brought it. A record's own time is held until
 * its batch is applied (Watermarks.hold); a watermark's counts at once. Returns what the record was.
 */
export async function dispatchInput(
  parts: readonly GroupPart[],
  watermarks: Watermarks,
  d: Dispatch,
): Promise<Routed | undefined> {
  const readers = parts.filter((p) => p.serdes.has(d.topic));
  const where = { topic: d.topic, partition: d.tp.partition };
  const decoded = new Map<Pick<Serde, 'decode'>, Awaited<ReturnType<typeof routeRecord>>>();
  for (const p of readers) {
    const serde = p.serdes.get(d.topic)!;
    if (!decoded.has(serde))
      decoded.set(serde, await routeRecord(serde, undefined, d.tp.topic, d.tp.partition, d.record, d.live));
    const routed = decoded.get(serde)!;
    if (routed.kind === 'event') {
      if (routed.event.observedAt !== undefined) watermarks.hold(where, routed.event.observedAt);
      await p.controller.onEvent(d.topic, routed.event);
    }
    if (routed.kind === 'watermark') {
      watermarks.observe(where, routed.observedAt);
      p.controller.onWatermark(d.topic, d.tp.partition, routed.resourceVersion);
    }
  }
  return decoded.values().next().value;
}
