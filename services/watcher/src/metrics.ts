import type { ObjectEventType } from '@kcm-bus/schemas/watch-record.ts';

/** WatcherMetrics is what the watcher counts; the prom-client implementation is metrics.prom.ts. */
export interface WatcherMetrics {
  event(kind: string, type: ObjectEventType): void;
  relisted(kind: string): void;
  watchRestarted(kind: string, reason: string): void;
  /** reached records the last published resourceVersion and the queue depth. */
  reached(kind: string, resourceVersion: string | undefined, depth: number): void;
  /**
   * watermarked records the time of a watermark of the kind once published: a consumer's input watermark age less the
   * watcher's is how far behind the watcher the consumer is (the soak's lag), whatever the watermarks' pace.
   */
  watermarked(kind: string, plural: string, at: Date): void;
  /** unknownField counts a field the schema lacks (each path is also logged once). */
  unknownField(kind: string, path: string): void;
}
