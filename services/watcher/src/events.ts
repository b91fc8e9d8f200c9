import type { ObjectEventType, WatchRecord } from '@kcm-bus/schemas/watch-record.ts';

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

/** StreamItem is what a list/watch loop hands on, in order: object events, or progress (a bookmark). */
export type StreamItem =
  | { readonly type: ObjectEventType; readonly object: KubeObject }
  | { readonly type: 'Progress'; readonly resourceVersion: string };

/**
 * PublishedRecord is a watch record on its way to the history topic: a watermark may carry each partition's
 * inventory (PublishedState.inventories, by partition), which goes in its INVENTORY_HEADER, not in its value.
 */
export type PublishedRecord = WatchRecord<KubeObject> & { readonly inventory?: readonly string[] };
