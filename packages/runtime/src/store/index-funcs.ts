/**
 * ObjectMetaLike is the part of an API object the ready-made index functions read (metav1.ObjectMeta's
 * namespace and ownerReferences), so they work on any kind's JSON.
 */
export type ObjectMetaLike = {
  readonly metadata?: {
    readonly namespace?: string | null;
    readonly ownerReferences?: readonly { readonly uid?: string | null; readonly controller?: boolean | null }[] | null;
  } | null;
};

/** NAMESPACE_INDEX is the conventional name of the byNamespace index (client-go's NamespaceIndex). */
export const NAMESPACE_INDEX = 'namespace';

/** CONTROLLER_UID_INDEX is the conventional name of the byControllerUID index (upstream's controllerUIDIndex). */
export const CONTROLLER_UID_INDEX = 'controllerUID';

/**
 * byNamespace indexes an object under its namespace; a cluster-scoped object goes under "" as in client-go.
 * Mirrors cache.MetaNamespaceIndexFunc.
 */
export function byNamespace(obj: ObjectMetaLike): readonly string[] {
  return [obj.metadata?.namespace ?? ''];
}

/**
 * byControllerUID indexes an object under the UID of its controller (the ownerReference with controller=true);
 * an object without one (an orphan) is in no entry. Mirrors the controllerUIDIndex of replica_set.go
 * (metav1.GetControllerOf).
 */
export function byControllerUID(obj: ObjectMetaLike): readonly string[] {
  const ref = obj.metadata?.ownerReferences?.find((r) => r.controller === true);
  return ref?.uid ? [ref.uid] : [];
}
