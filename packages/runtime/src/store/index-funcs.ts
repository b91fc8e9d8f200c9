/** OwnerReferenceLike is the part of a metav1.OwnerReference the index functions read. */
export type OwnerReferenceLike = {
  readonly kind?: string | null;
  readonly name?: string | null;
  readonly uid?: string | null;
  readonly controller?: boolean | null;
};

/**
 * ObjectMetaLike is the part of an API object the ready-made index functions read (metav1.ObjectMeta's
 * namespace and ownerReferences), so they work on any kind's JSON.
 */
export type ObjectMetaLike = {
  readonly metadata?: {
    readonly namespace?: string | null;
    readonly ownerReferences?: readonly OwnerReferenceLike[] | null;
  } | null;
};

/** NAMESPACE_INDEX is the conventional name of the byNamespace index (client-go's NamespaceIndex). */
export const NAMESPACE_INDEX = 'namespace';

/** POD_CONTROLLER_INDEX is the name of the byPodController index (controller.PodControllerIndex). */
export const POD_CONTROLLER_INDEX = 'podController';

/** CONTROLLER_UID_INDEX is the name of the byControllerUID index (replica_set.go's controllerUIDIndex). */
export const CONTROLLER_UID_INDEX = 'controllerUID';

/**
 * byNamespace indexes an object under its namespace; a cluster-scoped object goes under "" as in client-go.
 * Mirrors cache.MetaNamespaceIndexFunc.
 */
export function byNamespace(obj: ObjectMetaLike): readonly string[] {
  return [obj.metadata?.namespace ?? ''];
}

/**
 * podControllerIndexKey mirrors controller.PodControllerIndexKey: `namespace/Kind/Name/UID` of the controller an
 * object names in its ownerReferences, or the bare namespace for an object without one (an orphan).
 */
export function podControllerIndexKey(namespace: string, controller: OwnerReferenceLike | undefined): string {
  return controller === undefined
    ? namespace
    : `${namespace}/${controller.kind ?? ''}/${controller.name ?? ''}/${controller.uid ?? ''}`;
}

/**
 * byPodController indexes an object under its controller (the ownerReference with controller=true) within its
 * namespace, or under the namespace alone when it has none, so one lookup finds an owner's objects and another the
 * orphans it may adopt. Mirrors controller.AddPodControllerIndexer (metav1.GetControllerOf).
 */
export function byPodController(obj: ObjectMetaLike): readonly string[] {
  const ref = obj.metadata?.ownerReferences?.find((r) => r.controller === true);
  return [podControllerIndexKey(obj.metadata?.namespace ?? '', ref)];
}

/**
 * byControllerUID indexes an object under the UID of its own controller (the ownerReference with controller=true),
 * nothing for one without: a Deployment's ReplicaSets in one lookup. Mirrors replica_set.go's controllerUIDIndex.
 */
export function byControllerUID(obj: ObjectMetaLike): readonly string[] {
  const uid = obj.metadata?.ownerReferences?.find((r) => r.controller === true)?.uid;
  return uid == null ? [] : [uid];
}
