import type { ContainerStatus, ObjectMeta, OwnerReference, Pod, PodCondition } from '@kcm-bus/k8s/core-v1.ts';
import { Interner } from '@kcm-bus/runtime/store/index.ts';
import { POD_DELETION_COST } from './active-pods-with-ranks.ts';

/** strings is the one copy of the strings that the cached pods share; s interns one. */
const strings = new Interner();
const s = <S extends string | undefined>(x: S): S => strings.intern(x);

/**
 * PROJECTED_POD_FIELDS are the fields projectPod reads, the input's `fields`: pod records are decoded through a reader
 * schema of these alone, so a pod's containers, volumes and the rest are skipped in the bytes, never built. The test
 * beside this file checks that projectPod gives the same through them as on the whole pod.
 */
export const PROJECTED_POD_FIELDS: readonly string[] = [
  'metadata.name',
  'metadata.namespace',
  'metadata.uid',
  'metadata.resourceVersion',
  'metadata.creationTimestamp',
  'metadata.deletionTimestamp',
  'metadata.labels',
  'metadata.annotations',
  'metadata.ownerReferences',
  'spec.nodeName',
  'spec.initContainers.name',
  'spec.initContainers.restartPolicy',
  'status.phase',
  'status.conditions.type',
  'status.conditions.status',
  'status.conditions.lastTransitionTime',
  'status.containerStatuses.name',
  'status.containerStatuses.restartCount',
  'status.initContainerStatuses.name',
  'status.initContainerStatuses.restartCount',
];

/**
 * projectPod keeps of a pod only what the ReplicationController and ReplicaSet controllers read (an informer
 * transform, as upstream's informers drop managedFields, taken further because this controller knows its fields):
 * identity, labels, owners, creation and deletion times, the deletion-cost annotation, the node, sidecar init
 * containers, the phase, the Ready condition and restart counts. Everything else (containers, volumes, other
 * annotations) is not kept, so a cached pod costs a few hundred bytes whatever its spec. The strings pods share
 * (namespace, owner, labels, node, phase, condition, container names, the times of a burst) are kept once for all pods.
 */
export function projectPod(object: unknown): Pod {
  const pod = object as Pod;
  const cost = pod.metadata.annotations?.[POD_DELETION_COST];
  const initContainers = pod.spec?.initContainers
    ?.filter((c) => c.restartPolicy === 'Always')
    .map((c) => ({ name: s(c.name), restartPolicy: 'Always' }));
  const ready = pod.status?.conditions
    ?.filter((c) => c.type === 'Ready')
    .map((c): PodCondition =>
      defined({ type: s(c.type), status: s(c.status), lastTransitionTime: s(c.lastTransitionTime) }),
    );
  return {
    metadata: metadataOf(pod.metadata, cost),
    spec: defined({ nodeName: s(pod.spec?.nodeName), initContainers }),
    status: defined({
      phase: s(pod.status?.phase),
      conditions: ready,
      containerStatuses: restarts(pod.status?.containerStatuses),
      initContainerStatuses: restarts(pod.status?.initContainerStatuses),
    }),
  };
}

function metadataOf(m: ObjectMeta, cost: string | undefined): ObjectMeta {
  const { name, namespace, uid, resourceVersion, creationTimestamp, deletionTimestamp, labels, ownerReferences } = m;
  return defined({
    name,
    uid,
    namespace: s(namespace),
    resourceVersion,
    creationTimestamp: s(creationTimestamp),
    deletionTimestamp: s(deletionTimestamp),
    labels: strings.internValues(labels),
    ownerReferences: ownerReferences?.map(owner),
    annotations: cost === undefined ? undefined : { [POD_DELETION_COST]: s(cost) },
  });
}

function owner(o: OwnerReference): OwnerReference {
  return defined({
    apiVersion: s(o.apiVersion),
    kind: s(o.kind),
    name: s(o.name),
    uid: s(o.uid),
    controller: o.controller,
    blockOwnerDeletion: o.blockOwnerDeletion,
  });
}

function restarts(statuses: readonly ContainerStatus[] | undefined): readonly ContainerStatus[] | undefined {
  return statuses?.map((c) => ({ name: s(c.name), restartCount: c.restartCount }));
}

/** defined drops the absent fields, which the API never serves as null or undefined either. */
function defined<T extends object>(o: { readonly [K in keyof T]: T[K] | undefined }): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined && v !== null)) as T;
}
