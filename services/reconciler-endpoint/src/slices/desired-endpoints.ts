import type { Pod, Service } from '@kcm-bus/k8s/core-v1.ts';
import type { AddressType } from '@kcm-bus/k8s/discovery-v1.ts';
import type { Node } from '@kcm-bus/k8s/node-v1.ts';
import type { Lister } from '@kcm-bus/runtime/controller/index.ts';
import { shouldPodBeInEndpoints } from '../endpoint-address.ts';
import { endpointHash, type EndpointSet, portMapKey, type PortMapKey } from './endpoint-set.ts';
import { getEndpointPorts, podToEndpoint } from './pod-to-endpoint.ts';
import type { EndpointMeta } from './slice-meta.ts';

/** DesiredGroup is one port mapping's desired state: its meta (ports, address type) and its endpoints. */
export type DesiredGroup = { readonly meta: EndpointMeta; readonly endpoints: EndpointSet };

/** DesiredEndpoints are the groups by port mapping, and the errors of pods left out because their node is unknown. */
export type DesiredEndpoints = {
  readonly groups: ReadonlyMap<PortMapKey, DesiredGroup>;
  readonly errors: readonly string[];
};

/**
 * desiredEndpoints is the first half of Reconciler.reconcileByAddressType: every pod that belongs in endpoints,
 * terminating ones included (ShouldPodBeInEndpoints(pod, true)), grouped by the ports it resolves (a named
 * targetPort may resolve differently per pod); a pod whose node is not known is left out with an error (the sync
 * is retried) unless the Service publishes not-ready addresses; a pod without an address of the type adds its
 * group but no endpoint.
 */
export function desiredEndpoints(
  service: Service,
  pods: readonly Pod[],
  nodes: Pick<Lister<Node>, 'get'>,
  addressType: AddressType,
): DesiredEndpoints {
  const groups = new Map<PortMapKey, DesiredGroup>();
  const errors: string[] = [];
  const { namespace = '', name } = service.metadata;
  for (const pod of pods) {
    if (!shouldPodBeInEndpoints(pod, true)) continue;
    const ports = getEndpointPorts(service, pod);
    const key = portMapKey(ports);
    const group = groups.get(key) ?? { meta: { ports, addressType }, endpoints: new Map() };
    groups.set(key, group);
    const nodeName = pod.spec?.nodeName ?? '';
    const node = nodes.get(nodeName);
    if (node === undefined && service.spec?.publishNotReadyAddresses !== true) {
      errors.push(`skipping Pod ${pod.metadata.name} for Service ${namespace}/${name}: Node ${nodeName} Not Found`);
      continue;
    }
    const endpoint = podToEndpoint(pod, node, service, addressType);
    if (endpoint.addresses.length > 0) group.endpoints.set(endpointHash(endpoint), endpoint);
  }
  return { groups, errors };
}
