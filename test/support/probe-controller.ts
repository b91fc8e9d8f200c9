import { global, partitioned, type ControllerDeclaration } from '@kcm-bus/runtime/controller/index.ts';
import { runController } from '@kcm-bus/runtime/reconciler/run-controllers.node.ts';

/**
 * The probe controller is a controller the runtime's integration tests run as a real service: it reads pods
 * (partitioned) and nodes (global), or, as a singleton (KCM_BUS_PROBE_MODE=singleton), nodes alone with a tick every
 * second. It decides nothing; what the tests look at is its stores and reconciles, through its /metrics.
 */
const singleton = process.env['KCM_BUS_PROBE_MODE'] === 'singleton';

const common = {
  service: 'probe-controller',
  name: 'probe-controller',
  workqueue: 'probe',
  workers: { name: 'concurrent-probe-syncs', default: 1, help: 'Keys synced at once.' },
};
const nothing = { mutations: [] };

const withPods: ControllerDeclaration<{ readonly pods: unknown; readonly nodes: unknown }> = {
  ...common,
  inputs: { pods: partitioned<unknown>('kcm.state.pods'), nodes: global<unknown>('kcm.state.nodes') },
  spec: () => ({
    handlers: { pods: (e) => ({ enqueue: [e.key] }), nodes: () => ({ enqueue: [] }) },
    reconcile: () => nothing,
  }),
};

const alone: ControllerDeclaration<{ readonly nodes: unknown }> = {
  ...common,
  inputs: { nodes: global<unknown>('kcm.state.nodes') },
  singleton: true,
  tick: { flag: 'probe-period', default: '1s', help: 'Time between ticks.', keys: ['probe'] },
  spec: () => ({ handlers: { nodes: () => ({ enqueue: [] }) }, reconcile: () => nothing }),
};

await (singleton ? runController(alone) : runController(withPods));
