import { ENDPOINTS_CONTROLLER } from '@kcm-bus/catalog/controllers.ts';
import { watchedKind } from '@kcm-bus/schemas/kinds.ts';

/*
 * Who this controller is, as upstream's pkg/controller/endpoint/endpoints_controller.go names it, and the labels
 * and annotations it writes (k8s.io/api/core/v1 well-known names).
 */

const ENTRY = ENDPOINTS_CONTROLLER;

/** CONTROLLER_NAME is the controller's name in kube-controller-manager (--controllers), and our mutations' controller. */
export const CONTROLLER_NAME = ENTRY.name;
/** EVENT_SOURCE is upstream's ControllerName: its event source and the value of the managed-by label. */
export const EVENT_SOURCE = ENTRY.eventSource;
/** LABEL_MANAGED_BY is LabelManagedBy: set on every Endpoints the controller writes. */
export const LABEL_MANAGED_BY = 'endpoints.kubernetes.io/managed-by';
/** LABEL_HEADLESS is v1.IsHeadlessService: set (empty) when the Service has no cluster IP. */
export const LABEL_HEADLESS = 'service.kubernetes.io/headless';
/** ANNOTATION_TRIGGER_TIME is v1.EndpointsLastChangeTriggerTime. */
export const ANNOTATION_TRIGGER_TIME = 'endpoints.kubernetes.io/last-change-trigger-time';
/** ANNOTATION_OVER_CAPACITY is v1.EndpointsOverCapacity, set to "truncated" past maxCapacity. */
export const ANNOTATION_OVER_CAPACITY = 'endpoints.kubernetes.io/over-capacity';
/** ANNOTATION_LEADER is resourcelock.LeaderElectionRecordAnnotationKey: Endpoints carrying it are no leftovers. */
export const ANNOTATION_LEADER = 'control-plane.alpha.kubernetes.io/leader';
/** MAX_CAPACITY is maxCapacity: the most addresses (ready and not) one Endpoints object holds. */
export const MAX_CAPACITY = 1000;
/** SERVICES, PODS and ENDPOINTS are the kinds the controller reads; it writes Endpoints. */
export const SERVICES = watchedKind('services');
/** PODS: see SERVICES. */
export const PODS = watchedKind('pods');
/** ENDPOINTS: see SERVICES. */
export const ENDPOINTS = watchedKind('endpoints');

/**
 * POD_FIELDS are what the controller reads of a pod (its input's `fields`): membership and readiness
 * (labels, deletion, phase, Ready condition and its time), the address (IPs, node, hostname and subdomain) and the
 * ports a named targetPort resolves to (containers' and sidecars'). Pods are decoded through these alone and stored
 * as such; sync-service-fields.test.ts checks that syncs decide the same on them as on whole pods.
 */
export const POD_FIELDS: readonly string[] = [
  'metadata.name',
  'metadata.namespace',
  'metadata.uid',
  'metadata.resourceVersion',
  'metadata.labels',
  'metadata.deletionTimestamp',
  'spec.nodeName',
  'spec.hostname',
  'spec.subdomain',
  'spec.containers.ports',
  'spec.initContainers.restartPolicy',
  'spec.initContainers.ports',
  'status.phase',
  'status.podIP',
  'status.podIPs',
  'status.conditions',
];
