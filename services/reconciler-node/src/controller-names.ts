import {
  NODE_LIFECYCLE_CONTROLLER as NODE_LIFECYCLE,
  TAINT_EVICTION_CONTROLLER as TAINT_EVICTION,
} from '@kcm-bus/catalog/controllers.ts';

/** NODE_LIFECYCLE_CONTROLLER is upstream's controller name (--controllers): the `controller` of both parts' mutations. */
export const NODE_LIFECYCLE_CONTROLLER = NODE_LIFECYCLE.name;

/** NODE_CONTROLLER_SOURCE is the EventSource component of upstream's node lifecycle recorder. */
export const NODE_CONTROLLER_SOURCE = NODE_LIFECYCLE.eventSource;

/** TAINT_EVICTION_CONTROLLER is upstream's taint eviction controller name. */
export const TAINT_EVICTION_CONTROLLER = TAINT_EVICTION.name;

/** TAINT_EVICTION_SOURCE is the EventSource component of its recorder. */
export const TAINT_EVICTION_SOURCE = TAINT_EVICTION.eventSource;
