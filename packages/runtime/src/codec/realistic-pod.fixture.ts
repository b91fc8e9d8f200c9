/**
 * Test fixture: realisticPod is a Pod as the kube-apiserver returns it for a ReplicationController's replica,
 * written by hand with as many kinds of field as possible set: Quantity strings, int-or-string ports (named and
 * numeric), RFC 3339 times with and without fractions, managedFields' free-form FieldsV1, maps, nested arrays,
 * int64 and int32 numbers, booleans, and empty maps/arrays/objects that must survive as such.
 */
export const realisticPod = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: {
    name: 'web-7xk2p',
    generateName: 'web-',
    namespace: 'shop',
    uid: '5f0c2a9e-3d51-4a7e-9a61-2b1c0e4d9f11',
    resourceVersion: '184467',
    generation: 1,
    creationTimestamp: '2026-03-01T10:15:30Z',
    labels: { app: 'web', 'app.kubernetes.io/version': '1.4.2', 'pod-template-hash': '' },
    annotations: { 'kubectl.kubernetes.io/restartedAt': '2026-03-01T10:15:00+01:00', empty: '' },
    ownerReferences: [
      {
        apiVersion: 'v1',
        kind: 'ReplicationController',
        name: 'web',
        uid: 'a3c1d2e4-0000-4000-8000-000000000001',
        controller: true,
        blockOwnerDeletion: true,
      },
    ],
    finalizers: ['example.com/cleanup'],
    managedFields: [
      {
        manager: 'kube-controller-manager',
        operation: 'Update',
        apiVersion: 'v1',
        time: '2026-03-01T10:15:30Z',
        fieldsType: 'FieldsV1',
        fieldsV1: {
          'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} }, 'f:ownerReferences': { 'k:{"uid":"a3c1d2e4"}': {} } },
        },
      },
      {
        manager: 'kubelet',
        operation: 'Update',
        apiVersion: 'v1',
        time: '2026-03-01T10:15:41Z',
        fieldsType: 'FieldsV1',
        fieldsV1: {},
        subresource: 'status',
      },
    ],
  },
  spec: {
    volumes: [
      { name: 'cache', emptyDir: { medium: 'Memory', sizeLimit: '128Mi' } },
      {
        name: 'config',
        configMap: {
          name: 'web-config',
          items: [{ key: 'app.yaml', path: 'app.yaml', mode: 420 }],
          defaultMode: 420,
          optional: false,
        },
      },
      {
        name: 'kube-api-access-x1',
        projected: {
          defaultMode: 420,
          sources: [
            { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
            { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
            {
              downwardAPI: {
                items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }],
              },
            },
          ],
        },
      },
    ],
    initContainers: [
      {
        name: 'log-shipper',
        image: 'fluent-bit:3.1',
        restartPolicy: 'Always',
        resources: {},
        terminationMessagePolicy: 'File',
      },
    ],
    containers: [
      {
        name: 'web',
        image: 'registry.example.com/web@sha256:0123456789abcdef',
        command: ['/bin/web'],
        args: ['--port=8080', '--verbose'],
        workingDir: '/srv',
        ports: [
          { name: 'http', containerPort: 8080, protocol: 'TCP' },
          { name: 'metrics', containerPort: 9090, hostPort: 0, protocol: 'TCP' },
        ],
        env: [
          { name: 'MODE', value: 'production' },
          { name: 'EMPTY', value: '' },
          { name: 'POD_IP', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'status.podIP' } } },
          {
            name: 'MEM_LIMIT',
            valueFrom: { resourceFieldRef: { containerName: 'web', resource: 'limits.memory', divisor: '1Mi' } },
          },
          { name: 'TOKEN', valueFrom: { secretKeyRef: { name: 'web-secret', key: 'token', optional: true } } },
        ],
        envFrom: [{ configMapRef: { name: 'web-env' }, prefix: 'CFG_' }],
        resources: {
          limits: { cpu: '1500m', memory: '1Gi', 'example.com/gpu': '1' },
          requests: { cpu: '0.25', memory: '268435456' },
        },
        volumeMounts: [
          { name: 'cache', mountPath: '/cache' },
          { name: 'config', mountPath: '/etc/web', readOnly: true, subPath: 'app.yaml' },
        ],
        livenessProbe: {
          httpGet: {
            path: '/healthz',
            port: 'http',
            scheme: 'HTTP',
            httpHeaders: [{ name: 'X-Probe', value: 'liveness' }],
          },
          initialDelaySeconds: 10,
          timeoutSeconds: 1,
          periodSeconds: 10,
          successThreshold: 1,
          failureThreshold: 3,
        },
        readinessProbe: { tcpSocket: { port: 8080 }, periodSeconds: 5, failureThreshold: 1 },
        startupProbe: {
          exec: { command: ['cat', '/tmp/ready'] },
          failureThreshold: 30,
          terminationGracePeriodSeconds: 15,
        },
        lifecycle: { preStop: { sleep: { seconds: 5 } } },
        securityContext: {
          allowPrivilegeEscalation: false,
          readOnlyRootFilesystem: true,
          runAsNonRoot: true,
          capabilities: { drop: ['ALL'], add: [] },
        },
        terminationMessagePath: '/dev/termination-log',
        terminationMessagePolicy: 'FallbackToLogsOnError',
        imagePullPolicy: 'IfNotPresent',
      },
    ],
    restartPolicy: 'Always',
    terminationGracePeriodSeconds: 30,
    activeDeadlineSeconds: 9223372036,
    dnsPolicy: 'ClusterFirst',
    dnsConfig: { nameservers: ['10.96.0.10'], options: [{ name: 'ndots', value: '2' }, { name: 'edns0' }] },
    nodeSelector: { 'kubernetes.io/os': 'linux' },
    serviceAccountName: 'web',
    nodeName: 'kwok-node-3',
    securityContext: {
      runAsUser: 1000,
      runAsGroup: 3000,
      fsGroup: 2000,
      seccompProfile: { type: 'RuntimeDefault' },
      sysctls: [],
    },
    affinity: {
      nodeAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: {
          nodeSelectorTerms: [
            { matchExpressions: [{ key: 'topology.kubernetes.io/zone', operator: 'In', values: ['eu-1a', 'eu-1b'] }] },
          ],
        },
      },
      podAntiAffinity: {
        preferredDuringSchedulingIgnoredDuringExecution: [
          {
            weight: 100,
            podAffinityTerm: { labelSelector: { matchLabels: { app: 'web' } }, topologyKey: 'kubernetes.io/hostname' },
          },
        ],
      },
    },
    schedulerName: 'default-scheduler',
    tolerations: [
      { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
      { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
      { key: 'dedicated', operator: 'Equal', value: 'web', effect: 'NoSchedule' },
    ],
    hostAliases: [{ ip: '10.0.0.5', hostnames: ['db.local'] }],
    priorityClassName: 'high',
    priority: 1000000,
    enableServiceLinks: false,
    preemptionPolicy: 'PreemptLowerPriority',
    topologySpreadConstraints: [
      {
        maxSkew: 1,
        topologyKey: 'topology.kubernetes.io/zone',
        whenUnsatisfiable: 'ScheduleAnyway',
        labelSelector: { matchLabels: { app: 'web' } },
      },
    ],
    overhead: { cpu: '10m' },
  },
  status: {
    phase: 'Running',
    conditions: [
      { type: 'PodReadyToStartContainers', status: 'True', lastTransitionTime: '2026-03-01T10:15:35Z' },
      {
        type: 'Ready',
        status: 'False',
        lastTransitionTime: '2026-03-01T10:16:02Z',
        reason: 'ContainersNotReady',
        message: 'containers with unready status: [web]',
      },
    ],
    hostIP: '172.18.0.3',
    hostIPs: [{ ip: '172.18.0.3' }],
    podIP: '10.244.1.17',
    podIPs: [{ ip: '10.244.1.17' }, { ip: 'fd00::17' }],
    startTime: '2026-03-01T10:15:31Z',
    qosClass: 'Burstable',
    containerStatuses: [
      {
        name: 'web',
        state: { running: { startedAt: '2026-03-01T10:15:40Z' } },
        lastState: {
          terminated: {
            exitCode: 137,
            reason: 'OOMKilled',
            startedAt: '2026-03-01T10:15:33Z',
            finishedAt: '2026-03-01T10:15:39Z',
            containerID: 'containerd://aa',
          },
        },
        ready: false,
        restartCount: 1,
        image: 'registry.example.com/web:1.4.2',
        imageID: 'registry.example.com/web@sha256:0123456789abcdef',
        containerID: 'containerd://bb',
        started: true,
        allocatedResources: { cpu: '250m', memory: '256Mi' },
      },
    ],
    initContainerStatuses: [
      {
        name: 'log-shipper',
        state: { running: { startedAt: '2026-03-01T10:15:32Z' } },
        lastState: {},
        ready: true,
        restartCount: 0,
        image: 'fluent-bit:3.1',
        imageID: '',
        started: true,
      },
    ],
  },
};
