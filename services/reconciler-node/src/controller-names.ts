/** NODE_LIFECYCLE_CONTROLLER is upstream's controller name (--controllers): the `controller` of both halves' mutations. */
export const NODE_LIFECYCLE_CONTROLLER = 'node-lifecycle-controller';

/** NODE_CONTROLLER_SOURCE is the EventSource component of upstream's node lifecycle recorder. */
export const NODE_CONTROLLER_SOURCE = 'node-controller';

/** TAINT_EVICTION_CONTROLLER is upstream's taint eviction controller name and its recorder's EventSource component. */
export const TAINT_EVICTION_CONTROLLER = 'taint-eviction-controller';
