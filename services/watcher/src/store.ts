import { objectKey } from '@kcm-bus/schemas/kinds.ts';
import type { ObjectEventType } from '@kcm-bus/schemas/watch-record.ts';
import type { KubeObject, StreamItem } from './events.ts';

/**
 * Known is what the watcher keeps of a published object: its metadata, whose resourceVersion tells a relist whether
 * the object changed, and which is what a synthetic delete carries (client-go's DeletedFinalStateUnknown carries the
 * last known object; consumers' stores hold the rest, and the runtime hands their last state to the handlers).
 */
type Known = { readonly metadata: NonNullable<KubeObject['metadata']> };

/**
 * PublishedState is what the watcher has published for one kind: every live object's metadata. It is rebuilt from
 * the kind's state topic after a restart, so a relist can tell what changed and what vanished meanwhile.
 */
export class PublishedState {
  readonly #objects = new Map<string, Known>();

  /** apply records an Applied or Deleted item as published. */
  apply(type: ObjectEventType, key: string, object: KubeObject): void {
    if (type === 'Deleted') this.#objects.delete(key);
    else this.#objects.set(key, { metadata: object.metadata ?? {} });
  }

  /** size is how many live objects were published. */
  get size(): number {
    return this.#objects.size;
  }

  /**
   * relist turns a full list into the items that bring the topic to it: Applied for every object that is new
   * or changed since it was published, then a (synthetic) Deleted with the last known metadata for every
   * published object that is no longer there. Unchanged objects are not published again.
   * Mirrors what client-go's DeltaFIFO.Replace emits, minus the no-op Sync deltas.
   */
  relist(listed: readonly KubeObject[]): StreamItem[] {
    const seen = new Set<string>();
    const items: StreamItem[] = [];
    for (const object of listed) {
      const key = objectKey(object.metadata ?? {});
      seen.add(key);
      if (this.#objects.get(key)?.metadata.resourceVersion !== object.metadata?.resourceVersion) items.push({ type: 'Applied', object });
    }
    for (const [key, known] of this.#objects) {
      if (!seen.has(key)) items.push({ type: 'Deleted', object: { metadata: known.metadata } });
    }
    return items;
  }
}
