import type { EndpointAddress, EndpointPort, Pod, Service, ServicePort } from '@kcm-bus/k8s/core-v1.ts';
import { isTerminating } from '@kcm-bus/k8s/meta-v1.ts';
import { isIPv6String, parseIPSloppy } from '@kcm-bus/k8s/net.ts';

/**
 * shouldPodBeInEndpoints mirrors endpointslice util.ShouldPodBeInEndpoints: not a finished pod (Succeeded, Failed),
 * has an IP, and is not terminating unless includeTerminating (the Service's publishNotReadyAddresses).
 */
export function shouldPodBeInEndpoints(pod: Pod, includeTerminating: boolean): boolean {
  const { phase, podIP, podIPs } = pod.status ?? {};
  if (phase === 'Succeeded' || phase === 'Failed') return false;
  if ((podIP ?? '') === '' && (podIPs ?? []).length === 0) return false;
  return includeTerminating || !isTerminating(pod.metadata);
}

/** shouldSetHostname mirrors util.ShouldSetHostname: the pod names a hostname and the Service as its subdomain. */
export function shouldSetHostname(pod: Pod, service: Service): boolean {
  const { hostname = '', subdomain = '' } = pod.spec ?? {};
  return (
    hostname !== '' && subdomain === service.metadata.name && service.metadata.namespace === pod.metadata.namespace
  );
}

/**
 * podToEndpointAddressForService mirrors endpoints_controller.go: the pod's first IP of the Service's family (its
 * first ipFamily; else that of its cluster IP; else, headless, that of the pod's IP), in canonical form, with the
 * node name (present even when empty: a pointer upstream) and a targetRef without resourceVersion. undefined: the
 * pod has no IP of that family.
 */
export function podToEndpointAddressForService(service: Service, pod: Pod): EndpointAddress | undefined {
  const spec = service.spec ?? {};
  const clusterIP = spec.clusterIP ?? '';
  let wantIPv6: boolean;
  if ((spec.ipFamilies ?? []).length > 0) wantIPv6 = spec.ipFamilies![0] === 'IPv6';
  else if (clusterIP !== '' && clusterIP !== 'None') wantIPv6 = isIPv6String(clusterIP);
  else wantIPv6 = isIPv6String(pod.status?.podIP ?? '');
  const ip = (pod.status?.podIPs ?? [])
    .map((p) => parseIPSloppy(p.ip))
    .find((p) => p !== undefined && (p.family === 'IPv6') === wantIPv6);
  if (ip === undefined) return undefined;
  const { namespace, name, uid } = pod.metadata;
  return {
    ip: ip.text,
    nodeName: pod.spec?.nodeName ?? '',
    targetRef: { kind: 'Pod', ...(namespace ? { namespace } : {}), name, ...(uid ? { uid } : {}) },
  };
}

/**
 * findPort mirrors endpointslice.FindPort: a numeric targetPort is the port; a named one is the first container
 * port of that name and the Service port's protocol (compared as given; the apiserver defaults both to TCP), among the containers and then the sidecars (init containers
 * restarting Always). undefined: the pod has no such port (it serves the Service's other ports only).
 */
export function findPort(pod: Pod, servicePort: ServicePort): number | undefined {
  // The apiserver defaults targetPort to port; an unset one is IntOrString's zero value, the number 0.
  const target = servicePort.targetPort ?? 0;
  if (typeof target === 'number') return target;
  const sidecars = (pod.spec?.initContainers ?? []).filter((c) => c.restartPolicy === 'Always');
  for (const container of [...(pod.spec?.containers ?? []), ...sidecars]) {
    const found = (container.ports ?? []).find(
      (p) => (p.name ?? '') === target && (p.protocol ?? '') === (servicePort.protocol ?? ''),
    );
    if (found) return found.containerPort;
  }
  return undefined;
}

/** endpointPortFromServicePort mirrors endpoints_controller.go: the Service port's name, protocol and appProtocol on port portNum. */
export function endpointPortFromServicePort(servicePort: ServicePort, portNum: number): EndpointPort {
  const { name, protocol, appProtocol } = servicePort;
  return {
    ...(name ? { name } : {}),
    port: portNum,
    ...(protocol ? { protocol } : {}),
    ...(appProtocol !== undefined ? { appProtocol } : {}),
  };
}
