import type { Pod, Service } from '@kcm-bus/k8s/core-v1.ts';
import type { AddressType, Endpoint, EndpointPort } from '@kcm-bus/k8s/discovery-v1.ts';
import { isTerminating } from '@kcm-bus/k8s/meta-v1.ts';
import { isIPv6String, parseIPSloppy } from '@kcm-bus/k8s/net.ts';
import type { Node } from '@kcm-bus/k8s/node-v1.ts';
import { isPodReady } from '@kcm-bus/k8s/pod-util.ts';
import { findPort, shouldSetHostname } from '../endpoint-address.ts';
import { LABEL_TOPOLOGY_ZONE } from './endpointslice-controller.ts';

/**
 * podToEndpoint mirrors utils.go podToEndpoint: the pod's addresses of the slice's type; serving is the pod's
 * readiness, terminating its deletionTimestamp, and ready is serving and not terminating, or true whatever the pod
 * when the Service publishes not-ready addresses; the node name when scheduled, the zone of its node (when the node
 * is known and labels one), the hostname when the pod names the Service as its subdomain, and a target without
 * resourceVersion.
 */
export function podToEndpoint(pod: Pod, node: Node | undefined, service: Service, addressType: AddressType): Endpoint {
  const serving = isPodReady(pod);
  const terminating = isTerminating(pod.metadata);
  const ready = (service.spec?.publishNotReadyAddresses ?? false) || (serving && !terminating);
  const { namespace, name, uid } = pod.metadata;
  const hostname = pod.spec?.hostname ?? '';
  const nodeName = pod.spec?.nodeName ?? '';
  const zone = node?.metadata.labels?.[LABEL_TOPOLOGY_ZONE] ?? '';
  return {
    addresses: getEndpointAddresses(pod, addressType),
    conditions: { ready, serving, terminating },
    ...(shouldSetHostname(pod, service) ? { hostname } : {}),
    targetRef: { kind: 'Pod', ...(namespace ? { namespace } : {}), name, ...(uid ? { uid } : {}) },
    ...(nodeName !== '' ? { nodeName } : {}),
    ...(zone !== '' ? { zone } : {}),
  };
}

/**
 * getEndpointAddresses mirrors utils.go getEndpointAddresses: every pod IP of the slice's family, in canonical form
 * (an IPv4-mapped IPv6 address is IPv4); an IP that does not parse is left out (the apiserver validates pod IPs).
 */
export function getEndpointAddresses(pod: Pod, addressType: AddressType): string[] {
  const ips = (pod.status?.podIPs ?? []).map((p) => parseIPSloppy(p.ip));
  return ips.filter((ip) => ip !== undefined && ip.family === addressType).map((ip) => ip!.text);
}

/**
 * getEndpointPorts mirrors utils.go getEndpointPorts: one port per Service port the pod resolves (FindPort), with
 * the Service port's name and protocol (written even when empty) and appProtocol; a headless Service without ports
 * gets none.
 */
export function getEndpointPorts(service: Service, pod: Pod): EndpointPort[] {
  const ports = service.spec?.ports ?? [];
  if (ports.length === 0 && service.spec?.clusterIP === 'None') return [];
  return ports.flatMap((servicePort) => {
    const port = findPort(pod, servicePort);
    if (port === undefined) return [];
    const { name = '', protocol = '', appProtocol } = servicePort;
    return [{ name, protocol, port, ...(appProtocol !== undefined ? { appProtocol } : {}) }];
  });
}

/**
 * getAddressTypesForService mirrors utils.go getAddressTypesForService: the Service's ipFamilies, in order; without
 * them (an apiserver older than dual stack), the family of its cluster IP, or both families for a headless Service.
 */
export function getAddressTypesForService(service: Service): AddressType[] {
  const families = new Set<AddressType>();
  for (const family of service.spec?.ipFamilies ?? []) if (family === 'IPv4' || family === 'IPv6') families.add(family);
  if (families.size > 0) return [...families];
  const clusterIP = service.spec?.clusterIP ?? '';
  if (clusterIP !== '' && clusterIP !== 'None') return [isIPv6String(clusterIP) ? 'IPv6' : 'IPv4'];
  return ['IPv4', 'IPv6'];
}
