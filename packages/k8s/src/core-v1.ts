/*
 * The core/v1 JSON the controllers read and write, as the apiserver serves it. Only the fields a controller looks at
 * are typed; objects are spread, never rebuilt field by field, so the fields not named here travel through
 * untouched. Times are RFC 3339 strings; absent fields are absent, never null (the watch codec omits null fields,
 * as Go's omitempty does). A controller that reads another kind adds its type here, beside these.
 */
/** OwnerReference is metav1.OwnerReference; absent controller and blockOwnerDeletion mean false. */
export type OwnerReference = {
  readonly apiVersion: string;
  readonly kind: string;
  readonly name: string;
  readonly uid: string;
  readonly controller?: boolean;
  readonly blockOwnerDeletion?: boolean;
};

/** ObjectMeta is the part of metav1.ObjectMeta the controllers read (deletionTimestamp set means terminating). */
export type ObjectMeta = {
  readonly name: string;
  readonly namespace?: string;
  readonly uid: string;
  readonly resourceVersion?: string;
  readonly generation?: number;
  readonly creationTimestamp?: string;
  readonly deletionTimestamp?: string;
  readonly labels?: Readonly<Record<string, string>>;
  readonly annotations?: Readonly<Record<string, string>>;
  readonly ownerReferences?: readonly OwnerReference[];
  readonly finalizers?: readonly string[];
};

/** ConditionStatus is core/v1 ConditionStatus, the status of every condition of every kind. */
export type ConditionStatus = 'True' | 'False' | 'Unknown';

/** PodCondition is core/v1 PodCondition (Ready matters to most; taint eviction writes DisruptionTarget). */
export type PodCondition = {
  readonly type: string;
  readonly status: ConditionStatus;
  readonly lastTransitionTime?: string;
  readonly lastProbeTime?: string;
  readonly reason?: string;
  readonly message?: string;
  readonly observedGeneration?: number;
};

/** ContainerStatus is the part of core/v1 ContainerStatus the deletion ranking reads. */
export type ContainerStatus = { readonly name: string; readonly restartCount: number };

/** ContainerPort is core/v1 ContainerPort: a named port a Service's string targetPort resolves to (protocol defaults to TCP). */
export type ContainerPort = { readonly name?: string; readonly containerPort: number; readonly protocol?: string };

/**
 * Container is the part of core/v1 Container the controllers read: sidecars are init containers restarting Always;
 * ports resolve a Service's named targetPort.
 */
export type Container = {
  readonly name: string;
  readonly restartPolicy?: string;
  readonly ports?: readonly ContainerPort[];
};

/** TaintEffect is core/v1 TaintEffect. */
export type TaintEffect = 'NoSchedule' | 'PreferNoSchedule' | 'NoExecute';

/**
 * Toleration is core/v1 Toleration: operator Exists or Equal (absent means Equal), an empty key with Exists
 * tolerates every taint, an absent effect every effect; tolerationSeconds bounds how long a NoExecute taint is
 * tolerated (absent: forever).
 */
export type Toleration = {
  readonly key?: string;
  readonly operator?: 'Exists' | 'Equal';
  readonly value?: string;
  readonly effect?: TaintEffect;
  readonly tolerationSeconds?: number;
};

/** PodSpec is core/v1 PodSpec as far as the controllers look at it; a template's spec is copied whole. */
export type PodSpec = {
  readonly nodeName?: string;
  readonly hostname?: string;
  readonly subdomain?: string;
  readonly containers?: readonly Container[];
  readonly initContainers?: readonly Container[];
  readonly tolerations?: readonly Toleration[];
};

/** PodIP is core/v1 PodIP: one of the pod's addresses (podIPs[0] is podIP). */
export type PodIP = { readonly ip: string };

/** PodStatus is core/v1 PodStatus: phase Pending | Running | Succeeded | Failed | Unknown. */
export type PodStatus = {
  readonly phase?: string;
  readonly podIP?: string;
  readonly podIPs?: readonly PodIP[];
  readonly conditions?: readonly PodCondition[];
  readonly containerStatuses?: readonly ContainerStatus[];
  readonly initContainerStatuses?: readonly ContainerStatus[];
};

/** Pod is core/v1 Pod. */
export type Pod = {
  readonly apiVersion?: string;
  readonly kind?: string;
  readonly metadata: ObjectMeta;
  readonly spec?: PodSpec;
  readonly status?: PodStatus;
};

/** PodTemplateSpec is core/v1 PodTemplateSpec: the metadata a created pod inherits and its whole spec. */
export type PodTemplateSpec = {
  readonly metadata?: Partial<ObjectMeta>;
  readonly spec?: PodSpec;
};

/** ReplicationControllerCondition is core/v1 ReplicationControllerCondition (type ReplicaFailure). */
export type ReplicationControllerCondition = {
  readonly type: string;
  readonly status: ConditionStatus;
  readonly lastTransitionTime?: string;
  readonly reason?: string;
  readonly message?: string;
};

/** ReplicationControllerStatus is core/v1 ReplicationControllerStatus; zero counts are omitted on the wire. */
export type ReplicationControllerStatus = {
  readonly replicas: number;
  readonly fullyLabeledReplicas?: number;
  readonly readyReplicas?: number;
  readonly availableReplicas?: number;
  readonly observedGeneration?: number;
  readonly conditions?: readonly ReplicationControllerCondition[];
};

/** ReplicationControllerSpec is core/v1 ReplicationControllerSpec: selector is an equality map, not a LabelSelector. */
export type ReplicationControllerSpec = {
  readonly replicas?: number;
  readonly minReadySeconds?: number;
  readonly selector?: Readonly<Record<string, string>>;
  readonly template?: PodTemplateSpec;
};

/** ReplicationController is core/v1 ReplicationController. */
export type ReplicationController = {
  readonly apiVersion?: string;
  readonly kind?: string;
  readonly metadata: ObjectMeta;
  readonly spec: ReplicationControllerSpec;
  readonly status?: ReplicationControllerStatus;
};

/**
 * ServicePort is core/v1 ServicePort: targetPort is a number or a container port's name (IntOrString); protocol is
 * defaulted to TCP by the apiserver.
 */
export type ServicePort = {
  readonly name?: string;
  readonly protocol?: string;
  readonly appProtocol?: string;
  readonly port: number;
  readonly targetPort?: number | string;
};

/** ServiceSpec is the part of core/v1 ServiceSpec the endpoints controller reads; an absent selector is nil. */
export type ServiceSpec = {
  readonly type?: string;
  readonly selector?: Readonly<Record<string, string>>;
  readonly ports?: readonly ServicePort[];
  readonly clusterIP?: string;
  readonly ipFamilies?: readonly string[];
  readonly publishNotReadyAddresses?: boolean;
  /** trafficDistribution: `PreferClose`, `PreferSameZone` or `PreferSameNode` asks the endpointslice controller for hints. */
  readonly trafficDistribution?: string;
};

/** Service is core/v1 Service. */
export type Service = {
  readonly apiVersion?: string;
  readonly kind?: string;
  readonly metadata: ObjectMeta;
  readonly spec?: ServiceSpec;
};

/** ObjectReference is core/v1 ObjectReference as an endpoint address's targetRef carries it (kind Pod, no resourceVersion). */
export type ObjectReference = {
  readonly kind?: string;
  readonly namespace?: string;
  readonly name?: string;
  readonly uid?: string;
  readonly apiVersion?: string;
  readonly resourceVersion?: string;
  readonly fieldPath?: string;
};

/** EndpointAddress is core/v1 EndpointAddress; nodeName is a pointer upstream, so "" and absent differ. */
export type EndpointAddress = {
  readonly ip: string;
  readonly hostname?: string;
  readonly nodeName?: string;
  readonly targetRef?: ObjectReference;
};

/** EndpointPort is core/v1 EndpointPort (port is the resolved container port). */
export type EndpointPort = {
  readonly name?: string;
  readonly port: number;
  readonly protocol?: string;
  readonly appProtocol?: string;
};

/** EndpointSubset is core/v1 EndpointSubset: addresses sharing the same ports; absent lists are empty. */
export type EndpointSubset = {
  readonly addresses?: readonly EndpointAddress[];
  readonly notReadyAddresses?: readonly EndpointAddress[];
  readonly ports?: readonly EndpointPort[];
};

/** Endpoints is core/v1 Endpoints; absent subsets are none. */
export type Endpoints = {
  readonly apiVersion?: string;
  readonly kind?: string;
  readonly metadata: ObjectMeta;
  readonly subsets?: readonly EndpointSubset[];
};

/** NamespacePhase is core/v1 NamespacePhase. */
export type NamespacePhase = 'Active' | 'Terminating';

/** NamespaceCondition is core/v1 NamespaceCondition (the namespace controller's deletion conditions). */
export type NamespaceCondition = {
  readonly type: string;
  readonly status: ConditionStatus;
  readonly lastTransitionTime?: string;
  readonly reason?: string;
  readonly message?: string;
};

/**
 * Namespace is core/v1 Namespace: its phase is what the namespace's controllers read first; spec.finalizers (the
 * `kubernetes` finalizer) and the conditions are the namespace controller's.
 */
export type Namespace = {
  readonly apiVersion?: string;
  readonly kind?: string;
  readonly metadata: ObjectMeta;
  readonly spec?: { readonly finalizers?: readonly string[] };
  readonly status?: { readonly phase?: NamespacePhase; readonly conditions?: readonly NamespaceCondition[] };
};

/** FINALIZER_KUBERNETES is v1.FinalizerKubernetes, the namespace controller's finalizer token. */
export const FINALIZER_KUBERNETES = 'kubernetes';

/** ServiceAccount is core/v1 ServiceAccount, metadata only: the service account controller reads whether one exists. */
export type ServiceAccount = {
  readonly apiVersion?: string;
  readonly kind?: string;
  readonly metadata: ObjectMeta;
  /** secrets lists Secrets by name (informational since legacy tokens are no longer generated). */
  readonly secrets?: readonly ObjectReference[] | null;
};

/** SECRET_TYPE_SA_TOKEN is v1.SecretTypeServiceAccountToken. */
export const SECRET_TYPE_SA_TOKEN = 'kubernetes.io/service-account-token';
/** SA_NAME_KEY and SA_UID_KEY are v1.ServiceAccountNameKey and v1.ServiceAccountUIDKey: a token Secret's account. */
export const SA_NAME_KEY = 'kubernetes.io/service-account.name';
export const SA_UID_KEY = 'kubernetes.io/service-account.uid';

/**
 * Secret is core/v1 Secret as its topic carries it (schemas/withheld.ts): metadata, type and, in place of `data`, each
 * key's keyed digest; never a value.
 */
export type Secret = {
  readonly apiVersion?: string;
  readonly kind?: string;
  readonly metadata: ObjectMeta;
  readonly type?: string;
  readonly dataDigests?: Readonly<Record<string, string>>;
};

/** ConfigMap is core/v1 ConfigMap (the root CA publisher reads and writes `kube-root-ca.crt`). */
export type ConfigMap = {
  readonly apiVersion?: string;
  readonly kind?: string;
  readonly metadata: ObjectMeta;
  readonly data?: Readonly<Record<string, string>>;
  readonly binaryData?: Readonly<Record<string, string>>;
};
