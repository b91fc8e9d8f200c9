import { newControllerRef } from './claim-objects.ts';
import type { ObjectKind } from '@kcm-bus/runtime/catalog/index.ts';
import type { ReplicaSetLike } from './replica-set-kind.ts';

/** DNS1123_SUBDOMAIN_MAX_LENGTH is validation.DNS1123SubdomainMaxLength, the longest valid pod name. */
const DNS1123_SUBDOMAIN_MAX_LENGTH = 253;

/**
 * getPodsPrefix mirrors controller_utils.go getPodsPrefix: `<name>-` when that is a valid generateName (a set
 * name is a DNS subdomain, so only its length can fail), else the bare name.
 */
export function getPodsPrefix(controllerName: string): string {
  return controllerName.length + 1 <= DNS1123_SUBDOMAIN_MAX_LENGTH ? `${controllerName}-` : controllerName;
}

/** PodBody is the JSON object a Create of a pod carries. */
export type PodBody = {
  readonly apiVersion: 'v1';
  readonly kind: 'Pod';
  readonly metadata: Readonly<Record<string, unknown>>;
  readonly spec: unknown;
};

/**
 * getPodFromTemplate mirrors controller.GetPodFromTemplate: the template's labels, annotations and finalizers
 * (empty ones omitted, as Go's omitempty does), metadata.generateName `<name>-` (the writer derives the name
 * from the mutation id), the set's controllerRef as the only owner, and the template's spec as is.
 */
export function getPodFromTemplate(set: ReplicaSetLike, owner: ObjectKind): PodBody {
  const template = set.spec.template ?? {};
  const meta = template.metadata ?? {};
  const metadata: Record<string, unknown> = {
    generateName: getPodsPrefix(set.metadata.name),
    namespace: set.metadata.namespace,
  };
  if (Object.keys(meta.labels ?? {}).length > 0) metadata['labels'] = meta.labels;
  if (Object.keys(meta.annotations ?? {}).length > 0) metadata['annotations'] = meta.annotations;
  if ((meta.finalizers ?? []).length > 0) metadata['finalizers'] = meta.finalizers;
  metadata['ownerReferences'] = [newControllerRef(set, owner)];
  return { apiVersion: 'v1', kind: 'Pod', metadata, spec: template.spec ?? {} };
}

/** templateHasLabels is false when createPods would refuse: "unable to create pods, no labels". */
export function templateHasLabels(set: ReplicaSetLike): boolean {
  return Object.keys(set.spec.template?.metadata?.labels ?? {}).length > 0;
}
