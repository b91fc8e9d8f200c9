import { Counter, Gauge, type Registry } from 'prom-client';
import type { WatcherMetrics } from './metrics.ts';

/** promWatcherMetrics registers the watcher's series (prefix kcm_bus_watcher_, label kind). */
export function promWatcherMetrics(registry: Registry): WatcherMetrics {
  const registers = [registry];
  const events = new Counter({
    name: 'kcm_bus_watcher_events_total',
    help: 'Watch events published, by kind and type (Applied, Deleted).',
    labelNames: ['kind', 'type'],
    registers,
  });
  const relists = new Counter({
    name: 'kcm_bus_watcher_relists_total',
    help: 'Full lists, at start without a resume point and after 410 Gone.',
    labelNames: ['kind'],
    registers,
  });
  const restarts = new Counter({
    name: 'kcm_bus_watcher_watch_restarts_total',
    help: 'Watches restarted after an error, by reason (idle = the watchdog).',
    labelNames: ['kind', 'reason'],
    registers,
  });
  const lastRv = new Gauge({
    name: 'kcm_bus_watcher_last_resource_version',
    help: 'The last resourceVersion published (as a number).',
    labelNames: ['kind'],
    registers,
  });
  const depth = new Gauge({
    name: 'kcm_bus_watcher_queue_depth',
    help: 'Items waiting to be published.',
    labelNames: ['kind'],
    registers,
  });
  const watermark = new Gauge({
    name: 'kcm_bus_watcher_last_watermark_timestamp_seconds',
    help: "Time (Unix seconds) of the newest watermark of the kind published: a consumer's kcm_bus_input_watermark_age_seconds less now minus this is its lag behind the watcher.",
    labelNames: ['kind', 'resource'],
    registers,
  });
  const unknown = new Counter({
    name: 'kcm_bus_watcher_unknown_fields_total',
    help: 'Fields of API objects that the topic schema lacks, carried in unknownFields (each path logged once).',
    labelNames: ['kind'],
    registers,
  });
  return {
    event: (kind, type) => events.inc({ kind, type }),
    relisted: (kind) => relists.inc({ kind }),
    watchRestarted: (kind, reason) => restarts.inc({ kind, reason }),
    reached: (kind, rv, d) => {
      depth.set({ kind }, d);
      if (rv !== undefined && /^\d+$/.test(rv)) lastRv.set({ kind }, Number(rv));
    },
    watermarked: (kind, resource, at) => watermark.set({ kind, resource }, at.getTime() / 1000),
    unknownField: (kind) => unknown.inc({ kind }),
  };
}
