import { objectKey } from '@kcm-bus/schemas/kinds.ts';
import { Inventory } from '@kcm-bus/runtime/consumer/index.ts';
import type { ObjectEventType } from '@kcm-bus/schemas/watch-record.ts';
import type { KubeObject, StreamItem } from './events.ts';

/**
 * PublishedState is what the watcher has published for one kind: of every live object, the resourceVersion that
 * tells a relist whether it changed, and the uid that a synthetic delete carries with its name. That is all a
 * consumer needs of a delete (client-go's DeletedFinalStateUnknown carries the informer's last object; consumers'
 * stores hold it here, and the runtime hands their last state to the handlers), and it keeps the watcher's cache
 * at one string per object. It is rebuilt from the kind's state topic after a restart, so a relist can tell what
 * changed and what vanished meanwhile.
 */
export class PublishedState {
  /** key → `${resourceVersion}/${uid}`: neither contains a slash. */
  readonly #objects = new Map<string, string>();
  readonly #partitionOf: (key: string) => number;
  readonly #inventories: Inventory[];

  /** partitions and partitionOf place each key on its topic partition, for the inventories (one partition by default). */
  constructor(partitions = 1, partitionOf: (key: string) => number = () => 0) {
    this.#partitionOf = partitionOf;
    this.#inventories = Array.from({ length: partitions }, () => new Inventory());
  }

  /** apply records an Applied or Deleted item as published. */
  apply(type: ObjectEventType, key: string, object: KubeObject): void {
    const had = this.#objects.has(key);
    if (type === 'Deleted') {
      if (this.#objects.delete(key)) this.#inventories[this.#partitionOf(key)]?.removed(key);
      return;
    }
    this.#objects.set(key, `${object.metadata?.resourceVersion ?? ''}/${object.metadata?.uid ?? ''}`);
    if (!had) this.#inventories[this.#partitionOf(key)]?.added(key);
  }

  /**
   * inventories are each partition's published live objects summed up (INVENTORY_HEADER), as of every item applied
   * so far: items are applied in the order they are queued for publishing, so a watermark queued now follows them.
   */
  inventories(): readonly string[] {
    return this.#inventories.map((i) => i.header());
  }

  /** has tells whether a live object of this key was published. */
  has(key: string): boolean {
    return this.#objects.has(key);
  }

  /** size is how many live objects were published. */
  get size(): number {
    return this.#objects.size;
  }

  /**
   * relist turns a full list into the items that bring the topic to it: Applied for every object that is new
   * or changed since it was published, then a (synthetic) Deleted carrying the last known identity (namespace,
   * name, uid, resourceVersion) for every published object that is no longer there. Unchanged objects are not
   * published again. Mirrors what client-go's DeltaFIFO.Replace emits, minus the no-op Sync deltas.
   */
  relist(listed: readonly KubeObject[]): StreamItem[] {
    const seen = new Set<string>();
    const items: StreamItem[] = [];
    for (const object of listed) {
      const key = objectKey(object.metadata ?? {});
      seen.add(key);
      if (this.#resourceVersion(key) !== object.metadata?.resourceVersion) items.push({ type: 'Applied', object });
    }
    for (const [key, known] of this.#objects) {
      if (!seen.has(key)) items.push({ type: 'Deleted', object: { metadata: identity(key, known) } });
    }
    return items;
  }

  #resourceVersion(key: string): string | undefined {
    const known = this.#objects.get(key);
    return known === undefined ? undefined : known.slice(0, known.indexOf('/'));
  }
}

/** identity rebuilds the metadata a synthetic delete carries from a key (`namespace/name` or `name`) and what was kept. */
function identity(key: string, known: string): NonNullable<KubeObject['metadata']> {
  const [resourceVersion = '', uid = ''] = known.split('/');
  const slash = key.indexOf('/');
  const name = { name: key.slice(slash + 1), ...(slash < 0 ? {} : { namespace: key.slice(0, slash) }) };
  return { ...name, ...(uid === '' ? {} : { uid }), resourceVersion };
}
