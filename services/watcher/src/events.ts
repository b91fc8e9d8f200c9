/** KubeObject is an API object as JSON; only its metadata is read here. */
export type KubeObject = {
  readonly metadata?: {
    readonly name?: string;
    readonly namespace?: string;
    readonly uid?: string;
    readonly resourceVersion?: string;
    readonly managedFields?: unknown;
  };
  readonly [field: string]: unknown;
};

/**
 * WatchEvent is what the watcher publishes: an object was Applied (added or changed) or Deleted (the
 * record carries its last state), or a Watermark says which resourceVersion the stream had reached.
 * Synthetic deletes after a relist are Deleted events too (client-go's DeletedFinalStateUnknown).
 */
export type WatchEvent =
  | { readonly type: 'Applied' | 'Deleted'; readonly key: string; readonly resourceVersion: string; readonly observedAt: string; readonly object: KubeObject }
  | { readonly type: 'Watermark'; readonly key: typeof WATERMARK_KEY; readonly resourceVersion: string; readonly observedAt: string; readonly object: null };

/** WATERMARK_KEY is the record key of watermarks: no Kubernetes name can contain `~`. */
export const WATERMARK_KEY = '~watermark';

/** StreamItem is what a list/watch loop hands on, in order: object events, or progress (a bookmark). */
export type StreamItem =
  | { readonly type: 'Applied' | 'Deleted'; readonly object: KubeObject }
  | { readonly type: 'Progress'; readonly resourceVersion: string };

/** newerVersion tells whether resourceVersion a is later than b. The API says resourceVersions are opaque; the
 * apiserver's are etcd revisions (integers), and only a watcher resuming across restarts compares them. */
export function newerVersion(a: string, b: string | undefined): boolean {
  if (b === undefined || b === '') return true;
  if (!/^\d+$/.test(a) || !/^\d+$/.test(b)) return a !== b;
  return BigInt(a) > BigInt(b);
}
