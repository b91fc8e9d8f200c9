import { objectKey } from '@kcm-bus/schemas/kinds.ts';
import type { ObjectEventType } from '@kcm-bus/schemas/watch-record.ts';
import type { KubeObject, StreamItem } from './events.ts';

/** Known is the last state of one object as published. */
export type Known = { readonly resourceVersion: string; readonly object: KubeObject };

/**
 * PublishedState is what the watcher has published for one kind: the last state of every live object. It
 * is rebuilt from the kind's own topic after a restart, so a relist can tell what vanished meanwhile.
 */
export class PublishedState {
  readonly #objects = new Map<string, Known>();

  /** apply records an Applied or Deleted item as published. */
  apply(type: ObjectEventType, key: string, object: KubeObject): void {
    if (type === 'Deleted') this.#objects.delete(key);
    else this.#objects.set(key, { resourceVersion: object.metadata?.resourceVersion ?? '', object });
  }

  /** get is the last published state of a key. */
  get(key: string): Known | undefined {
    return this.#objects.get(key);
  }

  /** size is how many live objects were published. */
  get size(): number {
    return this.#objects.size;
  }

  /**
   * relist turns a full list into the items that bring the topic to it: Applied for every object that is new
   * or changed since it was published, then a (synthetic) Deleted with the last known state for every
   * published object that is no longer there. Unchanged objects are not published again.
   * Mirrors what client-go's DeltaFIFO.Replace emits, minus the no-op Sync deltas.
   */
  relist(listed: readonly KubeObject[]): StreamItem[] {
    const seen = new Set<string>();
    const items: StreamItem[] = [];
    for (const object of listed) {
      const key = objectKey(object.metadata ?? {});
      seen.add(key);
      if (this.#objects.get(key)?.resourceVersion !== object.metadata?.resourceVersion) items.push({ type: 'Applied', object });
    }
    for (const [key, known] of this.#objects) {
      if (!seen.has(key)) items.push({ type: 'Deleted', object: known.object });
    }
    return items;
  }
}
