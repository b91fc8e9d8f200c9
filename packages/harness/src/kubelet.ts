import type { RawKube } from './kube.ts';

/** FAKE_KUBELET_TAINT keeps kube-scheduler from placing other tests' pods on a fake kubelet's node. */
export const FAKE_KUBELET_TAINT = { key: 'kcm-bus.test/fake-kubelet', effect: 'NoSchedule' } as const;

const LEASE_NAMESPACE = 'kube-node-lease';
const RENEW_MS = 2000;

/** microTime is metav1.MicroTime's RFC 3339 with microseconds, as kubelets write a Lease's renewTime. */
function microTime(d: Date): string {
  return d.toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}

/**
 * FakeKubelet plays a node's kubelet through the API, as a test needs it: it registers the node, posts its Ready
 * status, renews its Lease every 2 s, and dies (stops renewing) and comes back on demand, which kwok's shared
 * process cannot do per node. Its pods' status is the test's to set (podReady).
 */
export class FakeKubelet {
  readonly #kube: RawKube;
  readonly name: string;
  readonly #zone: string;
  #renewing: NodeJS.Timeout | undefined;

  constructor(kube: RawKube, name: string, zone: string) {
    this.#kube = kube;
    this.name = name;
    this.#zone = zone;
  }

  /** register creates the node (in its zone, tainted for the scheduler) and its Lease, posts Ready and starts renewing. */
  async register(): Promise<void> {
    const labels = {
      'kubernetes.io/hostname': this.name,
      'kubernetes.io/os': 'linux',
      'kubernetes.io/arch': 'amd64',
      'topology.kubernetes.io/zone': this.#zone,
    };
    await this.#kube('POST', '/api/v1/nodes', {
      metadata: { name: this.name, labels },
      spec: { taints: [FAKE_KUBELET_TAINT] },
    });
    await this.#kube('POST', `/apis/coordination.k8s.io/v1/namespaces/${LEASE_NAMESPACE}/leases`, {
      metadata: { name: this.name },
      spec: { holderIdentity: this.name, leaseDurationSeconds: 40, renewTime: microTime(new Date()) },
    });
    await this.revive();
  }

  /** die stops posting and renewing, as a kubelet whose machine went away. */
  die(): void {
    clearInterval(this.#renewing);
    this.#renewing = undefined;
  }

  /** revive posts a fresh Ready heartbeat and renews the Lease again. */
  async revive(): Promise<void> {
    await this.#postReady();
    this.die();
    this.#renewing = setInterval(() => void this.#renew().catch(() => undefined), RENEW_MS);
  }

  /** remove stops the kubelet and deletes its node and Lease. */
  async remove(): Promise<void> {
    this.die();
    await this.#kube('DELETE', `/api/v1/nodes/${this.name}`).catch(() => undefined);
    await this.#kube('DELETE', `/apis/coordination.k8s.io/v1/namespaces/${LEASE_NAMESPACE}/leases/${this.name}`).catch(
      () => undefined,
    );
  }

  /** podReady sets a pod on this node Running and Ready, as its kubelet would. */
  async podReady(namespace: string, pod: string): Promise<void> {
    const path = `/api/v1/namespaces/${namespace}/pods/${pod}`;
    const current = await this.#kube('GET', path);
    const now = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
    const conditions = ['Initialized', 'ContainersReady', 'Ready', 'PodScheduled'].map((type) => ({
      type,
      status: 'True',
      lastTransitionTime: now,
    }));
    await this.#kube('PUT', `${path}/status`, {
      ...current,
      status: { phase: 'Running', conditions, podIP: '10.77.0.1', podIPs: [{ ip: '10.77.0.1' }] },
    });
  }

  /** #postReady writes the node's status as a kubelet's PATCH would; other controllers (TTL) touch nodes too, hence the retries. */
  async #postReady(): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.#putReady();
      } catch (err) {
        if (attempt >= 5 || !/: 409 /.test(String(err))) throw err;
      }
    }
  }

  async #putReady(): Promise<void> {
    const node = await this.#kube('GET', `/api/v1/nodes/${this.name}`);
    const now = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
    const condition = (type: string, status: string, reason: string) => ({
      type,
      status,
      reason,
      message: reason,
      lastHeartbeatTime: now,
      lastTransitionTime: now,
    });
    const conditions = [
      condition('MemoryPressure', 'False', 'KubeletHasSufficientMemory'),
      condition('DiskPressure', 'False', 'KubeletHasNoDiskPressure'),
      condition('PIDPressure', 'False', 'KubeletHasSufficientPID'),
      condition('Ready', 'True', 'KubeletReady'),
    ];
    const capacity = { cpu: '8', memory: '32Gi', pods: '110' };
    await this.#kube('PUT', `/api/v1/nodes/${this.name}/status`, {
      ...node,
      status: { conditions, capacity, allocatable: capacity },
    });
  }

  async #renew(): Promise<void> {
    const path = `/apis/coordination.k8s.io/v1/namespaces/${LEASE_NAMESPACE}/leases/${this.name}`;
    const lease = await this.#kube('GET', path);
    await this.#kube('PUT', path, {
      ...lease,
      spec: { ...(lease['spec'] as object), renewTime: microTime(new Date()) },
    });
  }
}
