import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { jsonLogger } from '@kcm-bus/runtime/service/index.ts';
import { watchedKind } from '@kcm-bus/schemas/kinds.ts';
import type { WatchRecord } from '@kcm-bus/schemas/watch-record.ts';
import type { KubeObject } from './events.ts';
import { objectTransform, startKindWatcher, type KindWatcher } from './kind-watcher.ts';
import type { ListWatcher } from './list-watcher.ts';
import type { RawWatchEvent } from './watch-stream.ts';
import type { WatcherMetrics } from './metrics.ts';
import { PublishedState } from './store.ts';
import { WatermarkPacer } from './watermark-pacer.ts';

const METRICS: WatcherMetrics = {
  event: () => undefined,
  relisted: () => undefined,
  watchRestarted: () => undefined,
  reached: () => undefined,
  watermarked: () => undefined,
  unknownField: () => undefined,
};

describe('startKindWatcher: watermarks', () => {
  it('given a listed kind whose watch has not opened yet, then no watermark vouches for it; once the watch is open, watermarks follow', async () => {
    let open: () => void = () => undefined;
    const opened = new Promise<void>((resolve) => (open = resolve));
    const api: ListWatcher = {
      list: async () => ({
        items: [{ metadata: { name: 'a', namespace: 'ns', resourceVersion: '10' } }],
        resourceVersion: '10',
      }),
      watch: async ({ onOpen, signal }) => {
        const aborted = new Promise<void>((resolve) =>
          signal.addEventListener('abort', () => resolve(), { once: true }),
        );
        await Promise.race([opened, aborted]);
        if (signal.aborted) return;
        onOpen?.();
        await aborted;
      },
    };
    const published: WatchRecord<KubeObject>[] = [];
    const watcher = startKindWatcher(
      { kind: 'Pod', plural: 'pods', namespaced: true } as never,
      {
        pageSize: 10,
        minWatchTimeoutSeconds: 300,
        idleTimeoutMs: 60_000,
        transform: objectTransform(watchedKind('pods'), false, undefined),
        maxBatch: 100,
        highWater: 1000,
      },
      {
        api,
        publish: async (records) => void published.push(...records),
        state: new PublishedState(),
        resumeFrom: undefined,
        metrics: METRICS,
        pacer: new WatermarkPacer({ intervalMs: 5, idleIntervalMs: 5 }),
        quiet: false,
        prompt: false,
        log: jsonLogger('test', { sink: () => undefined }),
        now: () => new Date(),
        onFatal: (err) => assert.fail(String(err)),
        fenced: () => false,
      },
    );
    try {
      await sleep(100);
      assert.deepEqual(
        published.map((r) => r.type),
        ['Applied'],
        'listed, but the watch is not open: no watermark',
      );
      open();
      await sleep(100);
      assert.ok(published.filter((r) => r.type === 'Watermark').length > 0, 'the watch is open: watermarks');
    } finally {
      await watcher.stop();
    }
  });

  it('given nothing changes, then the reached gauges are set once per change, not at every poll', async () => {
    const reached: [string | undefined, number][] = [];
    const paced = pacedWatcher({
      metrics: { ...METRICS, reached: (_kind, rv, depth) => void reached.push([rv, depth]) },
    });
    try {
      await until(() => paced.published.some((r) => r.type === 'Watermark'));
      const listed = reached.length;
      await sleep(300);
      assert.equal(reached.length, listed, 'sixty polls of nothing: not set again');
      assert.deepEqual(reached.at(-1), ['10', 0]);
      await paced.emit({ type: 'ADDED', object: { metadata: { name: 'a', namespace: 'ns', resourceVersion: '11' } } });
      await until(() => reached.at(-1)?.[0] === '11');
      const changed = reached.length;
      await sleep(300);
      assert.equal(reached.length, changed, 'after the change, sixty polls of nothing: not set again');
    } finally {
      await paced.watcher.stop();
    }
  });

  it('given a watermark published, then its time is recorded for the kind (the watcher side of a consumer lag)', async () => {
    const marked: [string, string, number][] = [];
    const paced = pacedWatcher({
      metrics: { ...METRICS, watermarked: (kind, plural, at) => void marked.push([kind, plural, at.getTime()]) },
    });
    try {
      await until(() => marked.length > 0);
      const published = paced.published.find((r) => r.type === 'Watermark');
      assert.deepEqual(marked[0], ['Pod', 'pods', Date.parse(published?.observedAt ?? '')]);
    } finally {
      await paced.watcher.stop();
    }
  });

  it('given nothing changes, then a kind marks once and waits out the idle interval; when an event comes, then a watermark follows it at once', async () => {
    const paced = pacedWatcher({});
    try {
      await until(() => paced.published.some((r) => r.type === 'Watermark'));
      await sleep(300);
      assert.deepEqual(
        paced.published.map((r) => r.type),
        ['Watermark'],
        'six intervals of nothing: still the first mark only',
      );
      await paced.emit({ type: 'ADDED', object: { metadata: { name: 'a', namespace: 'ns', resourceVersion: '11' } } });
      await until(() => paced.published.length >= 3);
      assert.deepEqual(
        paced.published.slice(0, 3).map((r) => [r.type, r.resourceVersion]),
        [
          ['Watermark', '10'],
          ['Applied', '11'],
          ['Watermark', '11'],
        ],
      );
    } finally {
      await paced.watcher.stop();
    }
  });

  it("given a record still being published when a watermark falls due, then the watermark carries that record's resourceVersion, not the last published one", async () => {
    const gate = { held: undefined as Promise<void> | undefined };
    const paced = pacedWatcher({ held: () => gate.held });
    try {
      await until(() => paced.published.some((r) => r.type === 'Watermark'));
      const { promise, resolve: release } = Promise.withResolvers<void>();
      gate.held = promise;
      const marks = paced.pacer.marks;
      await paced.emit({ type: 'ADDED', object: { metadata: { name: 'a', namespace: 'ns', resourceVersion: '11' } } });
      await until(() => paced.pacer.marks > marks);
      gate.held = undefined;
      release();
      await until(() => paced.published.length >= 3);
      assert.deepEqual(
        paced.published.slice(1, 3).map((r) => [r.type, r.resourceVersion]),
        [
          ['Applied', '11'],
          ['Watermark', '11'],
        ],
        'a watermark queued behind the record is published after it: the watch reached 11',
      );
    } finally {
      await paced.watcher.stop();
    }
  });

  it('given a quiet kind (--watermark-quiet-kinds), when an event comes, then no watermark hastens after it', async () => {
    const paced = pacedWatcher({ quiet: true });
    try {
      await until(() => paced.published.some((r) => r.type === 'Watermark'));
      await paced.emit({ type: 'ADDED', object: { metadata: { name: 'a', namespace: 'ns', resourceVersion: '11' } } });
      await until(() => paced.published.length === 2);
      await sleep(300);
      assert.deepEqual(
        paced.published.map((r) => r.type),
        ['Watermark', 'Applied'],
      );
    } finally {
      await paced.watcher.stop();
    }
  });
});

describe('startKindWatcher: prompt kinds (--watermark-prompt-kinds)', () => {
  const created = {
    type: 'ADDED',
    object: { metadata: { name: 'a', namespace: 'ns', resourceVersion: '11' } },
  } as const;
  const changed = {
    type: 'MODIFIED',
    object: { metadata: { name: 'a', namespace: 'ns', resourceVersion: '12' } },
  } as const;

  it("given changes going on (a minute's interval), when an object of a prompt kind is created, then a watermark follows at once; a change of it does not", async () => {
    const paced = pacedWatcher({ prompt: true, intervalMs: 60_000 });
    try {
      await until(() => paced.published.some((r) => r.type === 'Watermark'));
      await sleep(10); // a creation in the very millisecond of the last mark is covered by it (the pacer marks no more)
      await paced.emit(created);
      await until(() => paced.published.length >= 3);
      await paced.emit(changed);
      await until(() => paced.published.length >= 4);
      await sleep(300);
      assert.deepEqual(
        paced.published.map((r) => [r.type, r.resourceVersion]),
        [
          ['Watermark', '10'],
          ['Applied', '11'],
          ['Watermark', '11'],
          ['Applied', '12'],
        ],
      );
    } finally {
      await paced.watcher.stop();
    }
  });

  it('given a kind that is not a prompt kind, when an object is created while changes go on, then the watermark waits for the interval', async () => {
    const paced = pacedWatcher({ intervalMs: 60_000 });
    try {
      await until(() => paced.published.some((r) => r.type === 'Watermark'));
      await paced.emit(changed);
      await paced.emit({
        ...created,
        object: { metadata: { ...created.object.metadata, name: 'b', resourceVersion: '13' } },
      });
      await until(() => paced.published.length >= 3);
      await sleep(300);
      assert.deepEqual(
        paced.published.map((r) => r.type),
        ['Watermark', 'Applied', 'Applied'],
      );
    } finally {
      await paced.watcher.stop();
    }
  });
});

/**
 * pacedWatcher runs a kind with nothing listed, an interval of 50 ms (or intervalMs) and an idle interval of 10
 * minutes; emit sends a watch event.
 */
function pacedWatcher({
  quiet = false,
  prompt = false,
  intervalMs = 50,
  metrics = METRICS,
  held = () => undefined,
}: {
  quiet?: boolean;
  prompt?: boolean;
  intervalMs?: number;
  metrics?: WatcherMetrics;
  /** held: a promise each publication waits for before it lands, or undefined (it lands at once). */
  held?: () => Promise<void> | undefined;
}): {
  watcher: KindWatcher;
  published: WatchRecord<KubeObject>[];
  emit: (event: RawWatchEvent) => Promise<void>;
  pacer: CountingPacer;
} {
  const pacer = new CountingPacer({ intervalMs, idleIntervalMs: 600_000 });
  const paced = {
    published: [] as WatchRecord<KubeObject>[],
    emit: async (_event: RawWatchEvent): Promise<void> => undefined,
  };
  const api: ListWatcher = {
    list: async () => ({ items: [], resourceVersion: '10' }),
    watch: async ({ onOpen, signal }, onEvent) => {
      paced.emit = onEvent;
      onOpen?.();
      await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
    },
  };
  const watcher = startKindWatcher(
    { kind: 'Pod', plural: 'pods', namespaced: true } as never,
    {
      pageSize: 10,
      minWatchTimeoutSeconds: 300,
      idleTimeoutMs: 60_000,
      transform: objectTransform(watchedKind('pods'), false, undefined),
      maxBatch: 100,
      highWater: 1000,
    },
    {
      api,
      publish: async (records) => {
        await held();
        paced.published.push(...records);
      },
      state: new PublishedState(),
      resumeFrom: undefined,
      metrics,
      pacer,
      quiet,
      prompt,
      log: jsonLogger('test', { sink: () => undefined }),
      now: () => new Date(),
      onFatal: (err) => assert.fail(String(err)),
      fenced: () => false,
    },
  );
  return { watcher, published: paced.published, emit: (event) => paced.emit(event), pacer };
}

/** CountingPacer counts the watermarks the watcher marked: a test waits for one to fall due, not for a time. */
class CountingPacer extends WatermarkPacer {
  marks = 0;

  override marked(kind: string, nowMs: number): void {
    this.marks++;
    super.marked(kind, nowMs);
  }
}

/** until waits for a condition of the fakes, up to 10 s. */
async function until(condition: () => boolean): Promise<void> {
  for (const deadline = Date.now() + 10_000; !condition(); await sleep(5))
    if (Date.now() > deadline) assert.fail('condition not met in 10 s');
}

describe('objectTransform (the informer transform of a kind)', () => {
  const secret: KubeObject = {
    metadata: { name: 's', namespace: 'ns', managedFields: [{}] },
    type: 'kubernetes.io/service-account-token',
    data: { token: Buffer.from('t').toString('base64') },
  };
  it("given secrets and no digest key, then the watcher does not start: a secret's values must not reach a topic", () => {
    assert.throws(() => objectTransform(watchedKind('secrets'), false, undefined), /a digest key is required/);
  });
  it('given secrets and a digest key, then managed fields and values go, the digests stay; a pod keeps its fields', () => {
    const transform = objectTransform(watchedKind('secrets'), false, (v) => `d:${v.toString('utf8')}`);
    assert.deepEqual(transform(secret), {
      metadata: { name: 's', namespace: 'ns', annotations: {} },
      type: 'kubernetes.io/service-account-token',
      dataDigests: { token: 'd:t' },
    });
    const pod = { metadata: { name: 'p', managedFields: [{}] }, spec: { data: 'kept' } };
    assert.deepEqual(objectTransform(watchedKind('pods'), true, undefined)(pod), pod);
  });
  it('given a metadata-only kind (every Secret), then its identity alone stays, as the kind (no digest key needed)', () => {
    const transform = objectTransform(watchedKind('metadata.secrets'), false, undefined);
    const annotated = {
      apiVersion: 'meta.k8s.io/v1',
      kind: 'PartialObjectMetadata',
      metadata: {
        ...secret.metadata,
        uid: 'u1',
        resourceVersion: '7',
        labels: { a: 'b' },
        annotations: { 'kubectl.kubernetes.io/last-applied-configuration': '{"data":{"token":"dA=="}}' },
      },
      data: secret['data'],
    };
    assert.deepEqual(transform(annotated), {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 's', namespace: 'ns', uid: 'u1', resourceVersion: '7' },
    });
  });
});
