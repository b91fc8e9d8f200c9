import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { jsonLogger } from '@kcm-bus/runtime/service/log.ts';
import type { WatchRecord } from '@kcm-bus/schemas/watch-record.ts';
import type { KubeObject } from './events.ts';
import { startKindWatcher } from './kind-watcher.ts';
import type { ListWatcher } from './list-watcher.ts';
import type { WatcherMetrics } from './metrics.ts';
import { PublishedState } from './store.ts';

const METRICS: WatcherMetrics = { event: () => undefined, relisted: () => undefined, watchRestarted: () => undefined, reached: () => undefined, unknownField: () => undefined };

describe('startKindWatcher: watermarks', () => {
  it('given a listed kind whose watch has not opened yet, then no watermark vouches for it; once the watch is open, watermarks follow', async () => {
    let open: () => void = () => undefined;
    const opened = new Promise<void>((resolve) => (open = resolve));
    const api: ListWatcher = {
      list: async () => ({ items: [{ metadata: { name: 'a', namespace: 'ns', resourceVersion: '10' } }], resourceVersion: '10' }),
      watch: async ({ onOpen, signal }) => {
        const aborted = new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
        await Promise.race([opened, aborted]);
        if (signal.aborted) return;
        onOpen?.();
        await aborted;
      },
    };
    const published: WatchRecord<KubeObject>[] = [];
    const watcher = startKindWatcher({ kind: 'Pod', plural: 'pods', namespaced: true } as never, {
      pageSize: 10, minWatchTimeoutSeconds: 300, idleTimeoutMs: 60_000, watermarkIntervalMs: 5, keepManagedFields: false, maxBatch: 100, highWater: 1000,
    }, {
      api, publish: async (records) => void published.push(...records), state: new PublishedState(), resumeFrom: undefined, metrics: METRICS,
      log: jsonLogger('test', { sink: () => undefined }), now: () => new Date(), onFatal: (err) => assert.fail(String(err)), fenced: () => false,
    });
    try {
      await sleep(100);
      assert.deepEqual(published.map((r) => r.type), ['Applied'], 'listed, but the watch is not open: no watermark');
      open();
      await sleep(100);
      assert.ok(published.filter((r) => r.type === 'Watermark').length > 0, 'the watch is open: watermarks');
    } finally {
      await watcher.stop();
    }
  });
});
