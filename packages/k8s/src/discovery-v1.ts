/*
 * The discovery.k8s.io/v1 JSON the EndpointSlice controller reads and writes (k8s.io/api/discovery/v1), as core-v1.ts
 * types core/v1: only the fields a controller looks at are typed, objects are spread so the rest travels untouched,
 * absent fields are absent, never null. The apiserver serves an empty `endpoints` or `ports` list as null, which the
 * watch codec omits: an absent list is an empty one.
 */
import type { ObjectMeta, ObjectReference } from './core-v1.ts';
import type { TargetKind } from './mutation-drafts.ts';
import { watchedKind } from '@kcm-bus/schemas/kinds.ts';

/** AddressType is discovery/v1 AddressType: the family of every address of a slice (immutable once created). */
export type AddressType = 'IPv4' | 'IPv6' | 'FQDN';

/** ForZone is discovery/v1 ForZone: a zone an endpoint should be consumed from. */
export type ForZone = { readonly name: string };

/** ForNode is discovery/v1 ForNode: a node an endpoint should be consumed from (trafficDistribution PreferSameNode). */
export type ForNode = { readonly name: string };

/** EndpointHints is discovery/v1 EndpointHints: where consumers should prefer this endpoint (absent lists: none). */
export type EndpointHints = {
  readonly forZones?: readonly ForZone[];
  readonly forNodes?: readonly ForNode[];
};

/**
 * EndpointConditions is discovery/v1 EndpointConditions; each is a pointer upstream, so an absent condition is
 * "unknown", which consumers read as ready (ready) or false (serving, terminating).
 */
export type EndpointConditions = {
  readonly ready?: boolean;
  readonly serving?: boolean;
  readonly terminating?: boolean;
};

/**
 * Endpoint is discovery/v1 Endpoint: one backend (a pod) with its addresses of the slice's type; hostname, nodeName
 * and zone are pointers upstream, so "" and absent differ.
 */
export type Endpoint = {
  readonly addresses: readonly string[];
  readonly conditions?: EndpointConditions;
  readonly hostname?: string;
  readonly targetRef?: ObjectReference;
  readonly nodeName?: string;
  readonly zone?: string;
  readonly hints?: EndpointHints;
};

/**
 * EndpointPort is discovery/v1 EndpointPort: every field is a pointer upstream, and the controller writes name and
 * protocol even when empty, so `name: ""` is what a Service port without a name gives.
 */
export type EndpointPort = {
  readonly name?: string;
  readonly protocol?: string;
  readonly port?: number;
  readonly appProtocol?: string;
};

/** EndpointSliceMeta is the slice's metadata: ObjectMeta plus the generateName a slice is created with (`<service>-`). */
export type EndpointSliceMeta = ObjectMeta & { readonly generateName?: string };

/** EndpointSlice is discovery/v1 EndpointSlice; absent endpoints or ports are none. */
export type EndpointSlice = {
  readonly apiVersion?: string;
  readonly kind?: string;
  readonly metadata: EndpointSliceMeta;
  readonly addressType: AddressType;
  readonly endpoints?: readonly Endpoint[];
  readonly ports?: readonly EndpointPort[];
};

/** ENDPOINT_SLICES is the kind the EndpointSlice controller writes. */
export const ENDPOINT_SLICES: TargetKind = watchedKind('endpointslices');

/** LABEL_SERVICE_NAME is discovery.LabelServiceName: the Service a slice belongs to. */
export const LABEL_SERVICE_NAME = 'kubernetes.io/service-name';

/** LABEL_MANAGED_BY is discovery.LabelManagedBy: the controller or user that manages a slice. */
export const LABEL_MANAGED_BY = 'endpointslice.kubernetes.io/managed-by';
