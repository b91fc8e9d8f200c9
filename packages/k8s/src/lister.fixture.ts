import type { Lister } from '@kcm-bus/runtime/controller/index.ts';
import { type Indexers, Store } from '@kcm-bus/runtime/store/index.ts';
import { objectKey } from '@kcm-bus/schemas/kinds.ts';
import type { ObjectMeta } from './core-v1.ts';

/**
 * listerOf is the lister of a runtime Store holding these objects under their `namespace/name` keys, with the
 * index functions the controller declares: upstream tests' informer.GetIndexer().Add(obj) then NewXLister(indexer).
 */
export function listerOf<T extends { readonly metadata: Pick<ObjectMeta, 'namespace' | 'name'> }>(
  objects: Iterable<T>,
  indexers: Indexers<T> = {},
): Lister<T> {
  const store = new Store<T>(indexers);
  for (const object of objects) store.apply({ type: 'Applied', key: objectKey(object.metadata), object });
  return store.lister();
}
