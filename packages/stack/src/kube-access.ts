import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CONTROLLERS } from '@kcm-bus/catalog/controllers.ts';
import type { Grant, LiveCheck } from '@kcm-bus/runtime/catalog/index.ts';
import { apiGroup, type MutationVerb } from '@kcm-bus/runtime/mutation/index.ts';
import { apiResourceOf, WATCHED_KINDS, watchedKind, type WatchedKind } from '@kcm-bus/schemas/kinds.ts';
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
      users: [
        {
          name: id.user,
          user: { 'client-certificate-data': b64(`${id.file}.crt`), 'client-key-data': b64(`${id.file}.key`) },
        },
      ],
      contexts: [{ name: 'kcm-bus-local', context: { cluster: 'kcm-bus-local', user: id.user } }],
      'current-context': 'kcm-bus-local',
    };
    writeFileSync(kubeconfigPath(stackDir, id.file), `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
  }
}

type Rule = {
  readonly apiGroups: readonly string[];
  readonly resources: readonly string[];
  readonly resourceNames?: readonly string[];
  readonly verbs: readonly string[];
};

/** RBAC_VERBS are the API verbs each mutation verb needs; a RecordEvent creates, patches or updates an event (client-go's recorder). */
const RBAC_VERBS: Readonly<Record<MutationVerb, readonly string[]>> = {
  Create: ['create'],
  Update: ['update'],
  UpdateStatus: ['update'],
  Patch: ['patch'],
  Delete: ['delete'],
  RecordEvent: ['create', 'patch', 'update'],
  PopulateToken: ['update'],
  DeleteNamespaceContent: [],
  FinalizeNamespace: ['update'],
};

/**
 * CONTENT_RULE is what a DeleteNamespaceContent needs beyond its namespace: upstream's namespace-controller role
 * (plugin/pkg/auth/authorizer/rbac/bootstrappolicy/controller_policy.go), every namespaced resource listed and deleted,
 * one by one or by collection; the live check bounds it to a namespace the API says is terminating.
 */
const CONTENT_RULE = { group: '*', resource: '*', verbs: ['get', 'list', 'delete', 'deletecollection'] };

/** groupOf splits the catalog's `resource[.group][/subresource]` into RBAC's group and `resource[/subresource]`. */
function groupOf(resource: string): { readonly group: string; readonly resource: string } {
  const [qualified = '', sub] = resource.split('/');
  const dot = qualified.indexOf('.');
  const name = dot < 0 ? qualified : qualified.slice(0, dot);
  return { group: dot < 0 ? '' : qualified.slice(dot + 1), resource: sub === undefined ? name : `${name}/${sub}` };
}

/** rulesOf gathers (group, resource, verbs) into one rule per group and resource, verbs deduplicated, in first-seen order. */
function rulesOf(
  grants: readonly { readonly group: string; readonly resource: string; readonly verbs: readonly string[] }[],
): Rule[] {
  const rules = new Map<string, { apiGroups: string[]; resources: string[]; verbs: string[] }>();
  for (const g of grants) {
    const key = `${g.group} ${g.resource}`;
    const rule = rules.get(key) ?? {
      apiGroups: g.resource === 'events' ? ['', 'events.k8s.io'] : [g.group],
      resources: [g.resource],
      verbs: [],
    };
    for (const verb of g.verbs) if (!rule.verbs.includes(verb)) rule.verbs.push(verb);
    rules.set(key, rule);
  }
  return [...rules.values()];
}

/** LIVE_READS are what the writer gets from the API for a grant's live check (LiveCheck). */
const LIVE_READS: Readonly<Record<LiveCheck['check'], (g: Grant) => { group: string; resource: string }[]>> = {
  tokenAccount: (g) => [groupOf(g.resource), { group: '', resource: 'serviceaccounts' }],
  controlledByKey: (g) => [groupOf(g.resource)],
  namespaceTerminating: () => [{ group: '', resource: 'namespaces' }],
  keySecretGone: () => [{ group: '', resource: 'secrets' }],
};

/** writerRules are the catalog's grants as RBAC (and the owners' finalizers, which blockOwnerDeletion needs under OwnerReferencesPermissionEnforcement). */
function writerRules(): Rule[] {
  const grants = CONTROLLERS.flatMap((c) => [
    ...c.grants.map((g) => ({ ...groupOf(g.resource), verbs: g.verbs.flatMap((v) => RBAC_VERBS[v]) })),
    ...c.grants.flatMap((g) =>
      g.live === undefined ? [] : LIVE_READS[g.live.check](g).map((r) => ({ ...r, verbs: ['get'] })),
    ),
    ...(c.grants.some((g) => g.verbs.includes('DeleteNamespaceContent')) ? [CONTENT_RULE] : []),
    ...c.ownerFinalizers.map((plural) => ({
      group: apiGroup(watchedKind(plural).apiVersion),
      resource: `${plural}/finalizers`,
      verbs: ['update'],
    })),
  ]);
  return rulesOf(grants);
}

/**
 * watcherRules are list and watch of every watched kind, one rule per API group; a kind watched by one name
 * (onlyName) has a rule of its own, for that name only (RBAC authorizes a list or watch by resourceNames when its field
 * selector names the object), unless a metadata-only kind lists them all. A metadata-only kind's rule is the kind's
 * own (RBAC has no verb for metadata alone; the watcher asks for PartialObjectMetadata and keeps the identity).
 */
function watcherRules(): Rule[] {
  const whole = WATCHED_KINDS.filter((k) => k.onlyName === undefined);
  const groups = [...new Set(whole.map((k) => apiGroup(k.apiVersion)))];
  const wholly = (k: WatchedKind): boolean =>
    whole.some((w) => w.apiVersion === k.apiVersion && apiResourceOf(w) === apiResourceOf(k));
  const byName = WATCHED_KINDS.flatMap((k) =>
    k.onlyName === undefined || wholly(k)
      ? []
      : [
          {
            apiGroups: [apiGroup(k.apiVersion)],
            resources: [k.plural],
            resourceNames: [k.onlyName],
            verbs: ['list', 'watch'],
          },
        ],
  );
  return [
    ...groups.map((group) => ({
      apiGroups: [group],
      resources: [...new Set(whole.filter((k) => apiGroup(k.apiVersion) === group).map(apiResourceOf))],
      verbs: ['list', 'watch'],
    })),
    ...byName,
  ];
}

/**
 * ROLES bind each kcm-bus identity to least privilege: the watcher may only list and watch what it turns into topics
 * (WATCHED_KINDS); the writer may perform what the catalog grants the controllers (upstream's roles for the writes
 * they make), read what their live checks read, and, for the namespace controller, list and delete every namespaced
 * resource (upstream's role for it: its content passes; the live check bounds them to terminating namespaces), and
 * nothing else: it creates and updates nothing the catalog does not grant.
 */
export const ROLES: Readonly<Record<string, readonly Rule[]>> = { watcher: watcherRules(), writer: writerRules() };

/** rbacObjects are the ClusterRoles and ClusterRoleBindings of ROLES, as API objects. */
export function rbacObjects(): readonly {
  readonly path: string;
  readonly body: { readonly metadata: { readonly name: string } };
}[] {
  const base = '/apis/rbac.authorization.k8s.io/v1';
  return Object.entries(ROLES).flatMap(([id, rules]) => {
    const name = `kcm-bus:${id}`;
    return [
      {
        path: `${base}/clusterroles`,
        body: { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name }, rules },
      },
      {
        path: `${base}/clusterrolebindings`,
        body: {
          apiVersion: 'rbac.authorization.k8s.io/v1',
          kind: 'ClusterRoleBinding',
          metadata: { name },
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
      labels: {
        type: 'kwok',
        'kubernetes.io/hostname': name,
        'kubernetes.io/os': 'linux',
        'kubernetes.io/arch': 'amd64',
      },
    },
    status: {
      allocatable: { cpu: '32', memory: '256Gi', pods: '1000' },
      capacity: { cpu: '32', memory: '256Gi', pods: '1000' },
    },
  };
}
