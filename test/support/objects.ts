/** TestObject is one object of a watched kind a test creates, with its collection path and record key. */
export type TestObject = {
  readonly kind: string;
  readonly plural: string;
  readonly collection: string;
  readonly key: string;
  readonly body: Record<string, unknown>;
};

const meta = (name: string, namespace?: string): Record<string, unknown> => ({
  name,
  ...(namespace ? { namespace } : {}),
  labels: { test: 'watcher' },
});

/**
 * inertObjects are one object of every watched kind that nothing in the test stack acts on (the pod is
 * bound to a node that does not exist, the node is not kwok's), so their records are exactly the test's doing.
 */
export function inertObjects(ns: string, suffix: string): TestObject[] {
  const core = `/api/v1/namespaces/${ns}`;
  const objects: [string, string, string, Record<string, unknown>][] = [
    [
      'Pod',
      'pods',
      core,
      {
        spec: {
          nodeName: 'nowhere',
          containers: [{ name: 'c', image: 'busybox', resources: { limits: { cpu: '250m', memory: '64Mi' } } }],
        },
      },
    ],
    [
      'Service',
      'services',
      core,
      { spec: { ports: [{ port: 80, targetPort: 'http', protocol: 'TCP' }], selector: { app: 'x' } } },
    ],
    [
      'Endpoints',
      'endpoints',
      core,
      { subsets: [{ addresses: [{ ip: '10.9.0.1' }], ports: [{ port: 8080, name: 'http' }] }] },
    ],
    [
      'ReplicationController',
      'replicationcontrollers',
      core,
      {
        spec: {
          replicas: 0,
          selector: { app: 'x' },
          template: { metadata: { labels: { app: 'x' } }, spec: { containers: [{ name: 'c', image: 'busybox' }] } },
        },
      },
    ],
    [
      'Lease',
      'leases',
      `/apis/coordination.k8s.io/v1/namespaces/${ns}`,
      { spec: { holderIdentity: 'test', leaseDurationSeconds: 40 } },
    ],
    ['Node', 'nodes', '/api/v1', { spec: { unschedulable: true } }],
  ];
  return objects.map(([kind, plural, base, body]) => {
    const name = `wt-${plural}-${suffix}`;
    const namespace = kind === 'Node' ? undefined : ns;
    return {
      kind,
      plural,
      collection: `${base}/${plural}`,
      key: namespace ? `${namespace}/${name}` : name,
      body: { metadata: meta(name, namespace), ...body },
    };
  });
}
