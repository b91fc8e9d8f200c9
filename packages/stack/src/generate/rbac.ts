import { ROLES } from '../kube-access.ts';
import { yamlComment, yamlDocuments } from './yaml-text.ts';

const HEADER = [
  "Identities and least privilege: the local stack's rules (packages/stack/src/kube-access.ts ROLES, from the",
  'controller catalog), written here by `npm run generate`: edit those, not this file. Only the watcher reads the API',
  'and only the writer writes it: the reconcilers run as a ServiceAccount bound to nothing, with no token mounted.',
];

/** ABOUT says, above each role's ClusterRole, what it holds and why. */
const ABOUT: Readonly<Record<string, readonly string[]>> = {
  watcher: ['The watcher may only list and watch what it turns into topics (schemas/kinds.ts WATCHED_KINDS).'],
  writer: [
    'The writer may perform what the controller catalog (packages/catalog/src/controllers.ts) grants the controllers:',
    "the writes upstream's controllers make, and the owners' finalizers their pods' blockOwnerDeletion needs. Nothing",
    'else: it never reads.',
  ],
};

const RBAC = 'rbac.authorization.k8s.io';
const account = (name: string): string => `kcm-bus-${name}`;

/**
 * rbacManifest is deploy/kustomize/base/rbac.yaml, wholly derived: a ServiceAccount per role of ROLES and one for the
 * reconcilers (bound to nothing, no token mounted), then each role's ClusterRole and its binding to its account.
 */
export function rbacManifest(): string {
  const roles = Object.entries(ROLES);
  return `${yamlComment(HEADER)}${yamlDocuments([
    ...roles.map(([id]) => ({ value: { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: account(id) } } })),
    {
      value: {
        apiVersion: 'v1',
        kind: 'ServiceAccount',
        metadata: { name: account('reconciler') },
        automountServiceAccountToken: false,
      },
    },
    ...roles.map(([id, rules]) => ({
      comment: ABOUT[id] ?? [],
      value: { apiVersion: `${RBAC}/v1`, kind: 'ClusterRole', metadata: { name: `kcm-bus:${id}` }, rules },
    })),
    ...roles.map(([id]) => ({
      value: {
        apiVersion: `${RBAC}/v1`,
        kind: 'ClusterRoleBinding',
        metadata: { name: `kcm-bus:${id}` },
        roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: `kcm-bus:${id}` },
        subjects: [{ kind: 'ServiceAccount', name: account(id) }],
      },
    })),
  ])}`;
}
