import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { jsonLogger } from '@kcm-bus/runtime/service/index.ts';
import type { StreamItem } from './events.ts';
import { ApiStatusError, type ListWatcher } from './list-watcher.ts';
import { runReflector } from './reflector.ts';
import { PublishedState } from './store.ts';

const pod = (name: string, rv: string) => ({ metadata: { name, namespace: 'ns', resourceVersion: rv } });

describe('runReflector', () => {
  it('given a resume point the server calls too old (410), then it relists, emits the vanished object as Deleted and watches from the list', async () => {
    const state = new PublishedState();
    state.apply('Applied', 'ns/gone', pod('gone', '5'));
    const stop = new AbortController();
    const watchedFrom: string[] = [];
    const streaming: boolean[] = [];
    const api: ListWatcher = {
      list: async () => ({ items: [pod('kept', '9')], resourceVersion: '10' }),
      watch: async ({ resourceVersion, onOpen }, onEvent) => {
        watchedFrom.push(resourceVersion);
        if (resourceVersion === '5') throw new ApiStatusError('too old', 410);
        onOpen?.();
        await onEvent({ type: 'ADDED', object: pod('new', '11') });
        stop.abort();
      },
    };
    const items: StreamItem[] = [];
    await runReflector(
      api,
      state,
      '5',
      { pageSize: 10, minWatchTimeoutSeconds: 300, idleTimeoutMs: 60_000 },
      {
        sink: async (batch) => void items.push(...batch),
        relisted: () => undefined,
        watchRestarted: () => assert.fail('no error expected'),
        synced: () => undefined,
        streaming: (open) => void streaming.push(open),
        log: jsonLogger('test', { sink: () => undefined }),
        sleep: async () => undefined,
        random: () => 0,
      },
      stop.signal,
    );
    assert.deepEqual(watchedFrom, ['5', '10']);
    assert.deepEqual(streaming, [false, true, false], 'the refused watch never opened; the second opened, then ended');
    assert.deepEqual(items, [
      { type: 'Applied', object: pod('kept', '9') },
      { type: 'Deleted', object: pod('gone', '5') },
      { type: 'Progress', resourceVersion: '10' },
      { type: 'Applied', object: pod('new', '11') },
    ]);
  });
});
