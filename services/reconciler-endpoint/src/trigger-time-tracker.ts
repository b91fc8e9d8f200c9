import type { Pod, Service } from '@kcm-bus/k8s/core-v1.ts';
import { timeMs } from '@kcm-bus/k8s/meta-v1.ts';
import { podReadyCondition } from '@kcm-bus/k8s/pod-util.ts';

type ServiceState = {
  readonly lastServiceTriggerTime: number | undefined;
  readonly lastPodTriggerTimes: ReadonlyMap<string, number>;
};

/**
 * TriggerTimeTracker mirrors endpointslice util.TriggerTimeTracker: per Service, the trigger times seen at its last
 * sync, so a sync can tell the earliest change it is the answer to (the last-change-trigger-time annotation). Like
 * upstream's it lives in memory: a member that takes a Service over starts with none, and its first sync reports
 * the Service's creation.
 */
export class TriggerTimeTracker {
  readonly #states = new Map<string, ServiceState>();

  /**
   * computeEndpointLastChangeTriggerTime mirrors ComputeEndpointLastChangeTriggerTime: for a Service not seen
   * before, its creationTimestamp; else the earliest of the pods' Ready transitions and the Service's creation that
   * moved since the last sync; undefined (Go's zero time) when none did. Records what it saw.
   */
  computeEndpointLastChangeTriggerTime(key: string, service: Service, pods: readonly Pod[]): number | undefined {
    const state = this.#states.get(key);
    let min: number | undefined;
    const podTimes = new Map<string, number>();
    for (const pod of pods) {
      const t = timeMs(podReadyCondition(pod)?.lastTransitionTime);
      if (t === undefined) continue;
      podTimes.set(pod.metadata.name, t);
      if (t > (state?.lastPodTriggerTimes.get(pod.metadata.name) ?? -Infinity)) min = Math.min(min ?? t, t);
    }
    const serviceTime = timeMs(service.metadata.creationTimestamp);
    if (serviceTime !== undefined && serviceTime > (state?.lastServiceTriggerTime ?? -Infinity))
      min = Math.min(min ?? serviceTime, serviceTime);
    this.#states.set(key, { lastServiceTriggerTime: serviceTime, lastPodTriggerTimes: podTimes });
    return state === undefined ? serviceTime : min;
  }

  /** deleteService mirrors DeleteService: the Service is gone; a namesake starts afresh. */
  deleteService(key: string): void {
    this.#states.delete(key);
  }
}
