import type { ConfigMap, Namespace } from '@kcm-bus/k8s/core-v1.ts';
import type { ControllerSpec, Listers, ObjectEvent } from '@kcm-bus/runtime/controller/index.ts';
import { ROOT_CA_CONFIG_MAP, syncRootCA } from './sync-root-ca.ts';

/** RootCAInputs are what the publisher reads, co-partitioned by namespace; a key is a namespace's name. */
export type RootCAInputs = { readonly namespaces: Namespace; readonly configMaps: ConfigMap };

/**
 * rootCAPublisherSpec is upstream's NewPublisher: a namespace added, or updated while Active, enqueues itself
 * (namespaceAdded, namespaceUpdated); `kube-root-ca.crt` updated or deleted enqueues its namespace (configMapUpdated,
 * configMapDeleted: not its add); syncRootCA decides, with the CA bundle read from --root-ca-file.
 */
export function rootCAPublisherSpec(listers: Listers<RootCAInputs>, rootCA: string): ControllerSpec<RootCAInputs> {
  return {
    handlers: {
      namespaces: (event: ObjectEvent<Namespace>) => ({ enqueue: namespaceKeys(event) }),
      configMaps: (event: ObjectEvent<ConfigMap>) => ({ enqueue: configMapKeys(event) }),
    },
    reconcile: (key, input) => syncRootCA(key, input, { ...listers, rootCA }),
  };
}

function namespaceKeys(e: ObjectEvent<Namespace>): string[] {
  if (e.type === 'Deleted') return [];
  const added = e.old === undefined;
  return added || e.object.status?.phase === 'Active' ? [e.key] : [];
}

function configMapKeys(e: ObjectEvent<ConfigMap>): string[] {
  const { name, namespace } = e.object.metadata;
  const changed = e.type === 'Deleted' || e.old !== undefined;
  return changed && name === ROOT_CA_CONFIG_MAP && namespace !== undefined ? [namespace] : [];
}
