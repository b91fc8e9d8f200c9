import { type Backoff, ExponentialBackoff } from '@kcm-bus/runtime/flowcontrol/index.ts';
import type { Logger } from '@kcm-bus/runtime/service/index.ts';
import type { KubeObject, StreamItem } from './events.ts';
import { ApiStatusError, isGoneError, type ListWatcher } from './list-watcher.ts';
import type { PublishedState } from './store.ts';
import type { RawWatchEvent } from './watch-stream.ts';

/**
 * REFLECTOR_BACKOFF is the reflector's retry delay: 800 ms doubling to 30 s with up to 100 % jitter, as client-go's
 * reflector (wait.NewExponentialBackoffManager(800ms, 30s, 2m, 2.0, 1.0)); reset once a watch delivered, where
 * upstream's resets after 2 minutes without a failure.
 */
export const REFLECTOR_BACKOFF: Backoff = { durationMs: 800, factor: 2, jitter: 1, capMs: 30_000 };

/** ReflectorOptions are the loop's tunables (client-go's reflector names where it has them). */
export type ReflectorOptions = {
  readonly pageSize: number;
  /** minWatchTimeout: each watch asks the server to end it after a random time in [min, 2·min). */
  readonly minWatchTimeoutSeconds: number;
  /** A watch with no event or bookmark for this long is considered dead and restarted (the watchdog). */
  readonly idleTimeoutMs: number;
};

/** ReflectorHooks are what the loop reports to: the ordered sink of items, metrics and the log. */
export type ReflectorHooks = {
  /** sink receives items in order; it may wait (backpressure). A relist's items come as one atomic call. */
  readonly sink: (items: readonly StreamItem[], atomic?: boolean) => Promise<void>;
  readonly relisted: () => void;
  readonly watchRestarted: (reason: string) => void;
  readonly synced: () => void;
  /**
   * streaming tells whether a watch is open: true once the server accepted it, false when it ended or failed (and
   * all through a relist). Only while it is open does the stream vouch that nothing was missed up to now.
   */
  readonly streaming: (open: boolean) => void;
  readonly log: Logger;
  readonly sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  readonly random: () => number;
};

/**
 * runReflector is one kind's list/watch loop (client-go's Reflector.ListAndWatch): resume watching from a
 * resourceVersion, or list (paginated) and diff against what was published, emitting synthetic deletes for
 * objects that vanished; then watch with bookmarks. 410 Gone means relist; other errors back off with
 * jitter and retry from the last resourceVersion; a silent watch is cut by the watchdog.
 */
export async function runReflector(
  api: ListWatcher,
  state: PublishedState,
  resumeFrom: string | undefined,
  opts: ReflectorOptions,
  hooks: ReflectorHooks,
  signal: AbortSignal,
): Promise<void> {
  const backoff = new ExponentialBackoff(REFLECTOR_BACKOFF, hooks.random);
  let rv = resumeFrom;
  while (!signal.aborted) {
    try {
      if (rv === undefined) rv = await relist(api, state, opts, hooks);
      hooks.synced();
      rv = await watchOnce(api, rv, opts, hooks, signal, () => backoff.reset());
    } catch (err) {
      if (signal.aborted) break;
      if (isGoneError(err)) {
        hooks.log.info('resourceVersion too old (410 Gone): relisting', { resourceVersion: rv });
        rv = undefined;
        continue;
      }
      const reason =
        err instanceof ApiStatusError ? `status ${err.code}` : err instanceof IdleWatchError ? 'idle' : 'error';
      hooks.watchRestarted(reason);
      hooks.log.warn('list/watch failed; retrying', { reason, err, resourceVersion: rv });
      await hooks.sleep(backoff.next(), signal).catch(() => undefined);
    }
  }
}

async function relist(
  api: ListWatcher,
  state: PublishedState,
  opts: ReflectorOptions,
  hooks: ReflectorHooks,
): Promise<string> {
  const items: KubeObject[] = [];
  let page = await api.list({ limit: opts.pageSize });
  items.push(...page.items);
  while (page.continue) {
    page = await api.list({ limit: opts.pageSize, continue: page.continue });
    items.push(...page.items);
  }
  hooks.relisted();
  await hooks.sink([...state.relist(items), { type: 'Progress', resourceVersion: page.resourceVersion }], true);
  return page.resourceVersion;
}

/** IdleWatchError is the watchdog cutting a watch that went silent. */
export class IdleWatchError extends Error {}

async function watchOnce(
  api: ListWatcher,
  from: string,
  opts: ReflectorOptions,
  hooks: ReflectorHooks,
  outer: AbortSignal,
  established: () => void,
): Promise<string> {
  let rv = from;
  const cut = new AbortController();
  const onOuter = (): void => cut.abort(outer.reason);
  outer.addEventListener('abort', onOuter, { once: true });
  let idle: NodeJS.Timeout | undefined;
  const arm = (): void => {
    clearTimeout(idle);
    idle = setTimeout(
      () => cut.abort(new IdleWatchError(`no watch event for ${opts.idleTimeoutMs} ms`)),
      opts.idleTimeoutMs,
    );
  };
  const timeoutSeconds = Math.floor(opts.minWatchTimeoutSeconds * (1 + hooks.random()));
  try {
    arm();
    await api.watch(
      { resourceVersion: from, timeoutSeconds, signal: cut.signal, onOpen: () => hooks.streaming(true) },
      async (event) => {
        arm();
        established();
        rv = (await handle(event, hooks)) ?? rv;
      },
    );
    if (cut.signal.reason instanceof IdleWatchError) throw cut.signal.reason;
    return rv;
  } catch (err) {
    throw cut.signal.reason instanceof IdleWatchError ? cut.signal.reason : err;
  } finally {
    hooks.streaming(false);
    clearTimeout(idle);
    outer.removeEventListener('abort', onOuter);
  }
}

async function handle(event: RawWatchEvent, hooks: ReflectorHooks): Promise<string | undefined> {
  const rv = event.object.metadata?.resourceVersion;
  switch (event.type) {
    case 'ADDED':
    case 'MODIFIED':
      await hooks.sink([{ type: 'Applied', object: event.object }]);
      return rv;
    case 'DELETED':
      await hooks.sink([{ type: 'Deleted', object: event.object }]);
      return rv;
    case 'BOOKMARK':
      if (rv) await hooks.sink([{ type: 'Progress', resourceVersion: rv }]);
      return rv;
    default: {
      const status = event.object as { code?: number; message?: string };
      throw new ApiStatusError(`watch error: ${status.message ?? JSON.stringify(status)}`, status.code ?? 500);
    }
  }
}
