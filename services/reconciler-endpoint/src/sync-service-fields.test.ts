import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Pod, Service } from '@kcm-bus/k8s/core-v1.ts';
import { throughFields } from '@kcm-bus/runtime/codec/view.fixture.ts';
import type { AvroRecord } from '@kcm-bus/schemas/avro/avro-schema.ts';
import { loadWatchSchema } from '@kcm-bus/schemas/watch-schemas.fs.ts';
import { POD_FIELDS, PODS } from './endpoints-controller.ts';
import { endpointsFixture, newService, written } from './endpoints.fixture.ts';

const POD_SCHEMA = loadWatchSchema(PODS) as AvroRecord;

type PodShape = {
  readonly ip: string;
  readonly ready?: boolean;
  readonly port?: number;
  readonly sidecarPort?: number;
  readonly host?: string;
  readonly deleting?: boolean;
  readonly phase?: string;
  readonly node?: string;
  readonly ipv6?: string;
};

/** pod is a pod as the apiserver serves it, with much that no Endpoints depends on (image, env, volumes, statuses). */
function pod(name: string, s: PodShape): Pod {
  return {
    metadata: {
      namespace: 'ns',
      name,
      uid: `uid-${name}`,
      resourceVersion: '7',
      labels: { app: 'web', tier: name },
      annotations: { note: 'x' },
      creationTimestamp: '2026-11-27T00:00:00Z',
      ...(s.deleting ? { deletionTimestamp: '2026-11-27T00:01:00Z' } : {}),
    },
    spec: {
      nodeName: s.node ?? 'node-1',
      restartPolicy: 'Always',
      ...(s.host ? { hostname: s.host, subdomain: 'web' } : {}),
      containers: [
        {
          name: 'app',
          image: 'nginx',
          env: [{ name: 'A', value: '1' }],
          ports: [{ name: 'http', containerPort: s.port ?? 8080, protocol: 'TCP' }],
        },
      ],
      initContainers: [
        {
          name: 'proxy',
          image: 'envoy',
          restartPolicy: 'Always',
          ports: [{ name: 'admin', containerPort: s.sidecarPort ?? 9901, protocol: 'TCP' }],
        },
      ],
      volumes: [{ name: 'cache', emptyDir: {} }],
    },
    status: {
      phase: s.phase ?? 'Running',
      podIP: s.ip,
      podIPs: [{ ip: s.ip }, ...(s.ipv6 ? [{ ip: s.ipv6 }] : [])],
      hostIP: '10.1.0.1',
      startTime: '2026-11-27T00:00:01Z',
      conditions: [
        { type: 'Initialized', status: 'True' },
        { type: 'Ready', status: s.ready === false ? 'False' : 'True', lastTransitionTime: '2026-11-27T00:00:05Z' },
      ],
      containerStatuses: [
        {
          name: 'app',
          ready: true,
          restartCount: 2,
          image: 'nginx',
          imageID: 'sha256:1',
          started: true,
          state: { running: { startedAt: '2026-11-27T00:00:02Z' } },
        },
      ],
    },
  } as unknown as Pod;
}

const PODS_OF_EVERY_KIND: readonly Pod[] = [
  pod('a', { ip: '10.244.0.1', port: 8080 }),
  pod('b', { ip: '10.244.0.2', port: 9090, node: 'node-2' }),
  pod('c', { ip: '10.244.0.3', ready: false }),
  pod('d', { ip: '10.244.0.4', deleting: true }),
  pod('e', { ip: '10.244.0.5', phase: 'Succeeded' }),
  pod('f', { ip: '10.244.0.6', host: 'f-host' }),
  pod('g', { ip: '10.244.0.7', ipv6: 'fd00::7', sidecarPort: 9902 }),
];

const SERVICES: readonly (readonly [string, Service])[] = [
  [
    'a named targetPort on containers and on a sidecar',
    newService('ns', 'web', {
      selector: { app: 'web' },
      clusterIP: '10.0.0.10',
      ports: [
        { name: 'http', port: 80, protocol: 'TCP', targetPort: 'http' },
        { name: 'admin', port: 9901, protocol: 'TCP', targetPort: 'admin' },
      ],
    }),
  ],
  [
    'publishNotReadyAddresses, headless',
    newService('ns', 'web', {
      selector: { app: 'web' },
      clusterIP: 'None',
      publishNotReadyAddresses: true,
      ports: [{ port: 80, protocol: 'TCP', targetPort: 8080 }],
    }),
  ],
  [
    'an IPv6 family',
    newService('ns', 'web', {
      selector: { app: 'web' },
      ipFamilies: ['IPv6'],
      ports: [{ port: 80, protocol: 'TCP', targetPort: 'http' }],
    }),
  ],
];

describe("POD_FIELDS: reconciler-endpoint reads pods through its input's fields", () => {
  for (const [name, service] of SERVICES) {
    it(`given pods of every kind and a Service with ${name}, when the pods come through POD_FIELDS, then the sync writes what it writes on the whole pods`, async () => {
      const viewed = await Promise.all(PODS_OF_EVERY_KIND.map((p) => throughFields(POD_SCHEMA, POD_FIELDS, p)));
      const whole = endpointsFixture({ services: [service], pods: PODS_OF_EVERY_KIND }).sync('ns/web');
      assert.ok(written(whole)?.subsets?.length, 'the scenario writes addresses');
      assert.deepEqual(endpointsFixture({ services: [service], pods: viewed }).sync('ns/web'), whole);
    });
  }
});
