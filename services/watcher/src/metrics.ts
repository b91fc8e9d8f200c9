import type { ObjectEventType } from '@kcm-bus/schemas/watch-record.ts';

/** WatcherMetrics is what the watcher counts; the prom-client implementation is metrics.prom.ts. */
export interface WatcherMetrics {
  event(kind: string, type: ObjectEventType): void;
  relisted(kind: string): void;
  watchRestarted(kind: string, reason: string): void;
  /** reached records the last published resourceVersion and the queue depth. */
  reached(kind: string, resourceVersion: string | undefined, depth: number): void;
  /** unknownField counts a field the schema lacks (each path is also logged once). */
  unknownField(kind: string, path: string): void;
}
