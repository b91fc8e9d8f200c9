import { watchedKind } from '@kcm-bus/schemas/kinds.ts';

/*
 * Who this controller is, as upstream's pkg/controller/replication/replication_controller.go wires the ReplicaSet
 * manager for RCs: the GVK it manages, its controller name and its event source.
 */

/** RC_KIND and RC_API_VERSION are the GVK upstream's ReplicationManager passes (v1.SchemeGroupVersion.WithKind). */
export const RC_KIND = 'ReplicationController';
/** RC_API_VERSION: see RC_KIND. */
export const RC_API_VERSION = 'v1';
/** CONTROLLER_NAME is the controller's name in kube-controller-manager (--controllers), and our mutations' controller. */
export const CONTROLLER_NAME = 'replicationcontroller-controller';
/** EVENT_SOURCE is the event source component upstream's recorder uses for this controller. */
export const EVENT_SOURCE = 'replication-controller';
/** PODS is the kind whose objects the controller creates, adopts, releases and deletes. */
export const PODS = watchedKind('pods');
/** RCS is the kind whose status the controller writes. */
export const RCS = watchedKind(RC_KIND);
