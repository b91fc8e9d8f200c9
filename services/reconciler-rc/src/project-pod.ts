import type { ContainerStatus, ObjectMeta, Pod, PodCondition } from '@kcm-bus/k8s/core-v1.ts';
import { POD_DELETION_COST } from './active-pods-with-ranks.ts';

/**
 * projectPod keeps of a pod only what the ReplicationController manager reads (an informer transform, as upstream's
 * informers drop managedFields, taken further because this controller knows its fields): identity, labels, owners,
 * creation and deletion times, the deletion-cost annotation, the node, sidecar init containers, the phase, the Ready
 * condition and restart counts. Everything else (containers, volumes, other annotations) is not kept, so a cached pod
 * costs a few hundred bytes whatever its spec.
 */
export function projectPod(object: unknown): Pod {
  const pod = object as Pod;
  const cost = pod.metadata.annotations?.[POD_DELETION_COST];
  const initContainers = pod.spec?.initContainers?.filter((c) => c.restartPolicy === 'Always').map((c) => ({ name: c.name, restartPolicy: 'Always' }));
  const ready = pod.status?.conditions?.filter((c) => c.type === 'Ready').map((c): PodCondition => defined({ type: c.type, status: c.status, lastTransitionTime: c.lastTransitionTime }));
  return {
    metadata: metadataOf(pod.metadata, cost),
    spec: defined({ nodeName: pod.spec?.nodeName, initContainers }),
    status: defined({
      phase: pod.status?.phase, conditions: ready,
      containerStatuses: restarts(pod.status?.containerStatuses), initContainerStatuses: restarts(pod.status?.initContainerStatuses),
    }),
  };
}

function metadataOf(m: ObjectMeta, cost: string | undefined): ObjectMeta {
  const { name, namespace, uid, resourceVersion, creationTimestamp, deletionTimestamp, labels, ownerReferences } = m;
  return defined({ name, uid, namespace, resourceVersion, creationTimestamp, deletionTimestamp, labels, ownerReferences, annotations: cost === undefined ? undefined : { [POD_DELETION_COST]: cost } });
}

function restarts(statuses: readonly ContainerStatus[] | undefined): readonly ContainerStatus[] | undefined {
  return statuses?.map((s) => ({ name: s.name, restartCount: s.restartCount }));
}

/** defined drops the absent fields, which the API never serves as null or undefined either. */
function defined<T extends object>(o: { readonly [K in keyof T]: T[K] | undefined }): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined && v !== null)) as T;
}
