import type { EndpointAddress, EndpointPort, EndpointSubset, Pod, Service } from '@kcm-bus/k8s/core-v1.ts';
import { isPodReady } from '@kcm-bus/k8s/pod-util.ts';
import {
  endpointPortFromServicePort,
  findPort,
  podToEndpointAddressForService,
  shouldPodBeInEndpoints,
  shouldSetHostname,
} from './endpoint-address.ts';
import { repackSubsets } from './repack-subsets.ts';

/**
 * serviceSubsets is the loop of syncService over the Service's pods, repacked (RepackSubsets): each pod that
 * belongs in the Endpoints gives its address once per Service port it resolves (addEndpointSubset), ready when the
 * Service publishes not-ready addresses or the pod is Ready; a headless Service without ports gets the addresses
 * alone; a Service with a cluster IP and no ports gets none.
 */
export function serviceSubsets(service: Service, pods: readonly Pod[]): EndpointSubset[] {
  const spec = service.spec ?? {};
  const tolerateUnready = spec.publishNotReadyAddresses ?? false;
  const subsets: EndpointSubset[] = [];
  for (const pod of pods) {
    if (!shouldPodBeInEndpoints(pod, tolerateUnready)) continue;
    const address = podToEndpointAddressForService(service, pod);
    if (address === undefined) continue;
    const hostname = pod.spec?.hostname;
    const epa: EndpointAddress =
      hostname !== undefined && shouldSetHostname(pod, service) ? { ...address, hostname } : address;
    const ready = tolerateUnready || isPodReady(pod);
    const ports = spec.ports ?? [];
    if (ports.length === 0) {
      if (spec.clusterIP === 'None') subsets.push(addEndpointSubset(epa, undefined, ready));
      continue;
    }
    for (const servicePort of ports) {
      const portNum = findPort(pod, servicePort);
      if (portNum !== undefined)
        subsets.push(addEndpointSubset(epa, endpointPortFromServicePort(servicePort, portNum), ready));
    }
  }
  return repackSubsets(subsets);
}

/** addEndpointSubset mirrors endpoints_controller.go: one address on one port (or none), ready or not. */
function addEndpointSubset(epa: EndpointAddress, epp: EndpointPort | undefined, ready: boolean): EndpointSubset {
  const ports = epp === undefined ? [] : [epp];
  return ready ? { addresses: [epa], ports } : { notReadyAddresses: [epa], ports };
}
