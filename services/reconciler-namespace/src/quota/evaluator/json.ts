/*
 * The narrow JSON shapes the evaluators read, as the API serves them (quantities are strings), and total readers for
 * values of unknown shape: where upstream's typed decoding would reject a field of the wrong type, the reader sees it
 * as absent.
 */

/** Quantities is a corev1.ResourceList on the wire: a quantity string per resource name. */
export type Quantities = Readonly<Record<string, string>>;

/** ResourceRequirementsJson is corev1.ResourceRequirements. */
export type ResourceRequirementsJson = {
  readonly requests?: Quantities | null;
  readonly limits?: Quantities | null;
  readonly claims?: readonly { readonly name?: string; readonly request?: string }[] | null;
};

/** ObjectMetaJson is the part of metav1.ObjectMeta the evaluators read. */
export type ObjectMetaJson = {
  readonly name?: string;
  readonly namespace?: string;
  readonly annotations?: Readonly<Record<string, string>> | null;
  readonly deletionTimestamp?: string | null;
  readonly deletionGracePeriodSeconds?: number | null;
};

/** ContainerJson is the part of corev1.Container the evaluators read. */
export type ContainerJson = {
  readonly name?: string;
  readonly restartPolicy?: string | null;
  readonly resources?: ResourceRequirementsJson | null;
};

/** ContainerStatusJson is the part of corev1.ContainerStatus the evaluators read. */
export type ContainerStatusJson = {
  readonly name?: string;
  readonly allocatedResources?: Quantities | null;
  readonly resources?: ResourceRequirementsJson | null;
};

/** PodAffinityTermJson is the part of corev1.PodAffinityTerm the CrossNamespacePodAffinity scope reads. */
export type PodAffinityTermJson = {
  readonly namespaces?: readonly string[] | null;
  readonly namespaceSelector?: object | null;
};

/** PodAffinityJson is corev1.PodAffinity or corev1.PodAntiAffinity, as far as the scope reads them. */
export type PodAffinityJson = {
  readonly requiredDuringSchedulingIgnoredDuringExecution?: readonly PodAffinityTermJson[] | null;
  readonly preferredDuringSchedulingIgnoredDuringExecution?:
    readonly { readonly podAffinityTerm?: PodAffinityTermJson }[] | null;
};

/** AffinityJson is corev1.Affinity, as far as the CrossNamespacePodAffinity scope reads it. */
export type AffinityJson = {
  readonly podAffinity?: PodAffinityJson | null;
  readonly podAntiAffinity?: PodAffinityJson | null;
};

/** PodJson is the part of corev1.Pod the pod evaluator reads. */
export type PodJson = {
  readonly metadata?: ObjectMetaJson;
  readonly spec?: {
    readonly containers?: readonly ContainerJson[] | null;
    readonly initContainers?: readonly ContainerJson[] | null;
    readonly overhead?: Quantities | null;
    readonly resources?: ResourceRequirementsJson | null;
    readonly activeDeadlineSeconds?: number | null;
    readonly priorityClassName?: string;
    readonly affinity?: {
      readonly podAffinity?: PodAffinityJson | null;
      readonly podAntiAffinity?: PodAffinityJson | null;
    } | null;
  };
  readonly status?: {
    readonly phase?: string;
    readonly qosClass?: string;
    readonly conditions?: readonly { readonly type?: string; readonly reason?: string }[] | null;
    readonly containerStatuses?: readonly ContainerStatusJson[] | null;
    readonly initContainerStatuses?: readonly ContainerStatusJson[] | null;
  };
};

/** ServiceJson is the part of corev1.Service the service evaluator reads. */
export type ServiceJson = {
  readonly metadata?: ObjectMetaJson;
  readonly spec?: {
    readonly type?: string;
    readonly ports?: readonly { readonly nodePort?: number }[] | null;
    readonly allocateLoadBalancerNodePorts?: boolean | null;
  };
};

/** PersistentVolumeClaimJson is the part of corev1.PersistentVolumeClaim the claim evaluator reads. */
export type PersistentVolumeClaimJson = {
  readonly metadata?: ObjectMetaJson;
  readonly spec?: {
    readonly storageClassName?: string | null;
    readonly volumeAttributesClassName?: string | null;
    readonly resources?: { readonly requests?: Quantities | null } | null;
  };
  readonly status?: {
    readonly allocatedResources?: Quantities | null;
    readonly currentVolumeAttributesClassName?: string | null;
    readonly modifyVolumeStatus?: { readonly targetVolumeAttributesClassName?: string } | null;
  };
};

/**
 * shape is v, read as the JSON shape T, when it is a JSON object, else an empty one. Only the object itself is
 * checked: its fields are read with the guards below, never trusted to have their declared types.
 */
export function shape<T extends object>(v: unknown): T {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as T) : ({} as T);
}

/** record is shape for an object of unknown fields. */
export function record(v: unknown): Readonly<Record<string, unknown>> {
  return shape<Readonly<Record<string, unknown>>>(v);
}

/** items is v when it is a JSON array, else an empty one. */
export function items(v: unknown): readonly unknown[] {
  return Array.isArray(v) ? v : [];
}

/** text is v when it is a string, else "" (Go's zero string). */
export function text(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

/** present tells whether a field is set: neither absent nor null (Go's non-nil pointer, map or slice). */
export function present(v: unknown): boolean {
  return v !== undefined && v !== null;
}

/** objectName is "namespace/name" of an object, for messages. */
export function objectName(metadata: ObjectMetaJson | undefined): string {
  const m = record(metadata);
  return `${text(m['namespace'])}/${text(m['name'])}`;
}
