import { DEPLOYMENT_CONTROLLER } from '@kcm-bus/catalog/controllers.ts';
import type { ObjectKind } from '@kcm-bus/runtime/catalog/index.ts';
import { watchedKind } from '@kcm-bus/schemas/kinds.ts';

/** CONTROLLER is the controller's catalog name (upstream's `deployment-controller`): its mutations' `controller`. */
export const CONTROLLER = DEPLOYMENT_CONTROLLER.name;

/** EVENT_SOURCE is its event recorder's component, as upstream's (`deployment-controller`). */
export const EVENT_SOURCE = DEPLOYMENT_CONTROLLER.eventSource;

/** DEPLOYMENTS is the kind the controller reconciles (status writes, the rollback's update, events' involved object). */
export const DEPLOYMENTS = watchedKind('deployments');

/** REPLICA_SETS is the kind it creates, scales, adopts, releases and deletes. */
export const REPLICA_SETS = watchedKind('replicasets');

/** DEPLOYMENT_KIND is controllerKind (apps/v1 Deployment), as its ReplicaSets' controller references name it. */
export const DEPLOYMENT_KIND: ObjectKind = { apiVersion: DEPLOYMENTS.apiVersion, kind: DEPLOYMENTS.kind };

/** REPLICA_SET_KIND is the kind of its ReplicaSets as their pods' controller references name it. */
export const REPLICA_SET_KIND: ObjectKind = { apiVersion: REPLICA_SETS.apiVersion, kind: REPLICA_SETS.kind };
