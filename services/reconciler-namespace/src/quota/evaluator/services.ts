/* The service evaluator: pkg/quota/v1/evaluator/core/services.go. */
import { quantityOf } from '@kcm-bus/k8s/quantity.ts';
import { intersection } from '@kcm-bus/k8s/quota-resources.ts';
import { calculateUsageStats, matchesNoScope, objectCountQuotaResourceNameFor } from './evaluator.ts';
import type { Evaluator, ObjectUsage } from './evaluator.ts';
import { items, shape, text, type ServiceJson } from './json.ts';

const SERVICE_OBJECT_COUNT = objectCountQuotaResourceNameFor('services');
/** SERVICE_RESOURCES is serviceResources. */
const SERVICE_RESOURCES = [SERVICE_OBJECT_COUNT, 'services', 'services.nodeports', 'services.loadbalancers'];

/** quotaServiceType is GetQuotaServiceType: NodePort or LoadBalancer, else "". */
export function quotaServiceType(service: ServiceJson): string {
  const type = text(service.spec?.type);
  return type === 'NodePort' || type === 'LoadBalancer' ? type : '';
}

/** nodePorts is the services.nodeports a service charges: its ports, or only those with a node port set. */
function nodePorts(service: ServiceJson): number {
  const ports = items(service.spec?.ports);
  if (service.spec?.type === 'NodePort') return ports.length;
  if (service.spec?.type !== 'LoadBalancer') return 0;
  if (service.spec.allocateLoadBalancerNodePorts !== false) return ports.length;
  return ports.filter((p) => {
    const nodePort = shape<{ nodePort?: unknown }>(p).nodePort;
    return typeof nodePort === 'number' && nodePort !== 0;
  }).length;
}

/**
 * serviceUsage is serviceEvaluator.Usage: count/services and services at one; services.nodeports the ports of a
 * NodePort or LoadBalancer service (with allocateLoadBalancerNodePorts false, the ports naming a node port);
 * services.loadbalancers one for a LoadBalancer.
 */
export function serviceUsage(item: unknown): ObjectUsage {
  const service = shape<ServiceJson>(item);
  const usage = {
    [SERVICE_OBJECT_COUNT]: quantityOf(1, 'DecimalSI'),
    services: quantityOf(1, 'DecimalSI'),
    'services.loadbalancers': quantityOf(service.spec?.type === 'LoadBalancer' ? 1 : 0, 'DecimalSI'),
    'services.nodeports': quantityOf(nodePorts(service), 'DecimalSI'),
  };
  return { usage, errors: [] };
}

/** serviceEvaluator is NewServiceEvaluator: services listed by namespace; no scope matches. */
export function serviceEvaluator(list: (namespace: string) => readonly unknown[] | undefined): Evaluator {
  const evaluator: Evaluator = {
    groupResource: 'services',
    matchingResources: (input) => intersection(input, SERVICE_RESOURCES),
    matchesScope: matchesNoScope,
    usage: serviceUsage,
    usageStats: (options) => calculateUsageStats(options, list(options.namespace), evaluator),
  };
  return evaluator;
}
