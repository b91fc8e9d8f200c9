import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseAllDocuments } from 'yaml';
import { ROLES } from '../kube-access.ts';
import { rbacManifest } from './rbac.ts';

type Resource = {
  readonly kind: string;
  readonly metadata: { readonly name: string };
  readonly rules?: unknown;
  readonly roleRef?: { readonly name: string };
  readonly subjects?: unknown;
  readonly automountServiceAccountToken?: boolean;
};

const resources = parseAllDocuments(rbacManifest()).map((d) => d.toJSON() as Resource);
const ofKind = (kind: string): readonly Resource[] => resources.filter((r) => r.kind === kind);

describe('rbacManifest: deploy/kustomize/base/rbac.yaml', () => {
  it("given ROLES, then the ClusterRoles are exactly the local stack's (one truth for least privilege)", () => {
    assert.deepEqual(
      Object.fromEntries(ofKind('ClusterRole').map((r) => [r.metadata.name, r.rules])),
      Object.fromEntries(Object.entries(ROLES).map(([id, rules]) => [`kcm-bus:${id}`, rules])),
    );
  });

  it('given a kind watched by name (config maps: kube-root-ca.crt) and metadata-only as well, then the watcher lists them all, by one rule', () => {
    const rules = ROLES['watcher'] ?? [];
    const configMaps = rules.filter((r) => r.resources.includes('configmaps'));
    assert.equal(configMaps.length, 1);
    assert.equal(configMaps[0]?.resourceNames, undefined);
    assert.deepEqual(
      rules.filter((r) => r.apiGroups.includes('batch')),
      [{ apiGroups: ['batch'], resources: ['jobs', 'cronjobs'], verbs: ['list', 'watch'] }],
    );
    assert.ok(rules.some((r) => r.resources.includes('pods') && r.resourceNames === undefined));
  });

  it('given the bindings, then each role goes to its own ServiceAccount, and nothing else is bound', () => {
    assert.deepEqual(
      ofKind('ClusterRoleBinding').map((b) => [b.roleRef?.name, b.subjects]),
      [
        ['kcm-bus:watcher', [{ kind: 'ServiceAccount', name: 'kcm-bus-watcher' }]],
        ['kcm-bus:writer', [{ kind: 'ServiceAccount', name: 'kcm-bus-writer' }]],
      ],
    );
    assert.deepEqual(
      resources.map((r) => r.kind).filter((k) => !['ServiceAccount', 'ClusterRole', 'ClusterRoleBinding'].includes(k)),
      [],
    );
  });

  it("given the reconcilers' ServiceAccount, then it is bound to nothing and mounts no token", () => {
    assert.deepEqual(
      ofKind('ServiceAccount').map((a) => [a.metadata.name, a.automountServiceAccountToken]),
      [
        ['kcm-bus-watcher', undefined],
        ['kcm-bus-writer', undefined],
        ['kcm-bus-reconciler', false],
      ],
    );
  });
});
