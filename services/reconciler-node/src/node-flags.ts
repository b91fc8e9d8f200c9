import type { FlagReader, FlagSpec } from '@kcm-bus/runtime/service/index.ts';
import { DEFAULT_NODE_LIFECYCLE_CONFIG as D, type NodeLifecycleConfig } from './node-health/node-health-spec.ts';

/**
 * NODE_LIFECYCLE_FLAGS are kube-controller-manager's node lifecycle flags, with upstream's names, spellings and
 * defaults (v1.37.2), plus kcm-bus's --max-input-staleness (the stall guard). --node-monitor-period is the tick's.
 */
export const NODE_LIFECYCLE_FLAGS: readonly FlagSpec[] = [
  {
    name: 'node-monitor-grace-period',
    type: 'duration',
    default: '50s',
    help: 'How long a node may stay silent (no Ready heartbeat, no Lease renewal) before it is marked Unknown.',
  },
  {
    name: 'node-startup-grace-period',
    type: 'duration',
    default: '1m0s',
    help: 'How long a node that never posted status may stay silent before it is marked Unknown.',
  },
  {
    name: 'node-eviction-rate',
    type: 'number',
    default: D.evictionLimiterQPS,
    help: 'Nodes per second tainted NoExecute in a healthy zone.',
  },
  {
    name: 'secondary-node-eviction-rate',
    type: 'number',
    default: D.secondaryEvictionLimiterQPS,
    help: 'Nodes per second tainted NoExecute in an unhealthy zone (0 in a zone of at most --large-cluster-size-threshold nodes).',
  },
  {
    name: 'large-cluster-size-threshold',
    type: 'number',
    default: D.largeClusterThreshold,
    help: 'Zone size above which an unhealthy zone keeps the secondary rate instead of 0.',
  },
  {
    name: 'unhealthy-zone-threshold',
    type: 'number',
    default: D.unhealthyZoneThreshold,
    help: 'Fraction of not-Ready nodes (at least 3) that makes a zone unhealthy.',
  },
  {
    name: 'max-input-staleness',
    type: 'duration',
    default: '20s',
    help: "kcm-bus: how old the nodes or leases input may be known complete (its watermarks) before the monitor pass judges nothing and reports the inputs stale. Whatever it is, a node's silence is counted only up to the time its heartbeat is known complete, never on wall time past it.",
  },
];

/** nodeLifecycleConfig reads NODE_LIFECYCLE_FLAGS. */
export function nodeLifecycleConfig(flags: FlagReader): NodeLifecycleConfig {
  return {
    nodeMonitorGracePeriodMs: flags.duration('node-monitor-grace-period'),
    nodeStartupGracePeriodMs: flags.duration('node-startup-grace-period'),
    evictionLimiterQPS: flags.number('node-eviction-rate'),
    secondaryEvictionLimiterQPS: flags.number('secondary-node-eviction-rate'),
    largeClusterThreshold: flags.number('large-cluster-size-threshold'),
    unhealthyZoneThreshold: flags.number('unhealthy-zone-threshold'),
    maxInputStalenessMs: flags.duration('max-input-staleness'),
  };
}
