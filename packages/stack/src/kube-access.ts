import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { IDENTITIES, pkiDir } from './pki.ts';

/** kubeconfigPath is the kubeconfig of one identity: `kubeconfig` for the admin, `kubeconfig.<id>` otherwise. */
export function kubeconfigPath(stackDir: string, identity = 'admin'): string {
  return join(stackDir, identity === 'admin' ? 'kubeconfig' : `kubeconfig.${identity}`);
}

/** writeKubeconfigs writes a standalone kubeconfig (certificates embedded) for every identity. */
export function writeKubeconfigs(stackDir: string, server: string): void {
  const b64 = (file: string): string => readFileSync(join(pkiDir(stackDir), file)).toString('base64');
  for (const id of IDENTITIES) {
    const config = {
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [{ name: 'kcm-bus-local', cluster: { server, 'certificate-authority-data': b64('ca.crt') } }],
      users: [{ name: id.user, user: { 'client-certificate-data': b64(`${id.file}.crt`), 'client-key-data': b64(`${id.file}.key`) } }],
      contexts: [{ name: 'kcm-bus-local', context: { cluster: 'kcm-bus-local', user: id.user } }],
      'current-context': 'kcm-bus-local',
    };
    writeFileSync(kubeconfigPath(stackDir, id.file), `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
  }
}

type Rule = { readonly apiGroups: readonly string[]; readonly resources: readonly string[]; readonly verbs: readonly string[] };

const WATCHED = ['pods', 'nodes', 'services', 'endpoints', 'replicationcontrollers'];

/**
 * ROLES bind each kcm-bus identity to least privilege: the watcher may only list and watch what it
 * turns into topics; the writer may perform what upstream's replication, endpoints and node lifecycle
 * controllers do (and read single objects back), and nothing else.
 */
export const ROLES: Readonly<Record<string, readonly Rule[]>> = {
  watcher: [
    { apiGroups: [''], resources: WATCHED, verbs: ['list', 'watch'] },
    { apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs: ['list', 'watch'] },
  ],
  writer: [
    { apiGroups: [''], resources: ['pods'], verbs: ['get', 'create', 'delete', 'patch'] },
    { apiGroups: [''], resources: ['pods/status'], verbs: ['patch', 'update'] },
    { apiGroups: [''], resources: ['replicationcontrollers'], verbs: ['get'] },
    { apiGroups: [''], resources: ['replicationcontrollers/status'], verbs: ['update'] },
    { apiGroups: [''], resources: ['endpoints'], verbs: ['get', 'create', 'update', 'delete'] },
    { apiGroups: [''], resources: ['nodes'], verbs: ['get', 'patch', 'update'] },
    { apiGroups: [''], resources: ['nodes/status'], verbs: ['patch', 'update'] },
    { apiGroups: ['', 'events.k8s.io'], resources: ['events'], verbs: ['create', 'patch', 'update'] },
  ],
};

/** rbacObjects are the ClusterRoles and ClusterRoleBindings of ROLES, as API objects. */
export function rbacObjects(): readonly { readonly path: string; readonly body: { readonly metadata: { readonly name: string } } }[] {
  const base = '/apis/rbac.authorization.k8s.io/v1';
  return Object.entries(ROLES).flatMap(([id, rules]) => {
    const name = `kcm-bus:${id}`;
    return [
      { path: `${base}/clusterroles`, body: { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name }, rules } },
      {
        path: `${base}/clusterrolebindings`,
        body: {
          apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRoleBinding', metadata: { name },
          roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name },
          subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name }],
        },
      },
    ];
  });
}

/** kwokNode is a fake node that the stack's kwok process manages (selected by its annotation). */
export function kwokNode(name: string): object {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name,
      annotations: { 'kwok.x-k8s.io/node': 'fake', 'node.alpha.kubernetes.io/ttl': '0' },
      labels: { type: 'kwok', 'kubernetes.io/hostname': name, 'kubernetes.io/os': 'linux', 'kubernetes.io/arch': 'amd64' },
    },
    status: {
      allocatable: { cpu: '32', memory: '256Gi', pods: '1000' },
      capacity: { cpu: '32', memory: '256Gi', pods: '1000' },
    },
  };
}
