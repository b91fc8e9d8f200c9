import { KubeConfig, Watch } from '@kubernetes/client-node';

/** Followed is an open client watch: stop() ends it, check() throws what ended it for good (an ERROR event, a failed reopen). */
export type Followed = { readonly stop: () => void; readonly check: () => void };

/** Versioned is what follow reads of every object: its resourceVersion, to reopen from. */
type Versioned = { readonly metadata?: { readonly resourceVersion?: string } };

/**
 * follow watches a collection (`/api/v1/namespaces/<ns>/pods`) as a user's client does and hands each event to
 * onEvent with its delivery time (Date.now()); a stream that ends is reopened from the last resourceVersion seen,
 * as a Reflector's watch is (an expired version is a failure: a benchmark's watch is minutes long).
 */
export function follow<T extends Versioned>(
  kubeconfig: string,
  path: string,
  onEvent: (type: string, obj: T, at: number) => void,
): Followed {
  const kc = new KubeConfig();
  kc.loadFromFile(kubeconfig);
  let rv: string | undefined,
    stopped = false,
    failure: unknown,
    abort: AbortController | undefined;
  const deliver = (type: string, obj: T): void => {
    const at = Date.now();
    if (type === 'ERROR') failure = new Error(`watch of ${path}: ${JSON.stringify(obj)}`);
    else rv = obj.metadata?.resourceVersion ?? rv;
    if (type !== 'ERROR' && type !== 'BOOKMARK') onEvent(type, obj, at);
  };
  const open = (): void => {
    new Watch(kc)
      .watch(path, { resourceVersion: rv, allowWatchBookmarks: true }, deliver, () => {
        if (!stopped && failure === undefined) open();
      })
      .then(
        (c) => {
          abort = c;
          if (stopped) c.abort();
        },
        (err: unknown) => {
          failure = err;
        },
      );
  };
  open();
  return {
    stop: () => {
      stopped = true;
      abort?.abort();
    },
    check: () => {
      if (failure !== undefined) throw failure;
    },
  };
}
