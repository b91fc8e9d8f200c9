import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { parseAllDocuments, stringify } from 'yaml';
import { ROLES } from '@kcm-bus/stack/kube-access.ts';
import { testStack, uniqueName } from '../support/stack.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const OVERLAY = resolve(ROOT, 'deploy/kustomize/overlays/example');
const stack = testStack();

type Run = { readonly code: number | null; readonly stdout: string; readonly stderr: string };
type Resource = {
  kind: string;
  metadata: { name: string; namespace?: string };
  roleRef?: { name: string };
  subjects?: { namespace?: string }[];
};

/** kubectl runs kubectl with the stack's admin kubeconfig, stdin given. */
function kubectl(args: readonly string[], stdin = ''): Promise<Run> {
  return new Promise((done, fail) => {
    const child = spawn('kubectl', ['--kubeconfig', stack.kubeconfig, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', fail);
    child.on('close', (code) => done({ code, stdout, stderr }));
    child.stdin.end(stdin);
  });
}

async function built(): Promise<Resource[]> {
  const run = await kubectl(['kustomize', OVERLAY]);
  assert.equal(run.code, 0, run.stderr);
  return parseAllDocuments(run.stdout).map((d) => d.toJSON() as Resource);
}

/** VERBS and PROBED are the matrix every identity is probed on: what it is granted must be yes, everything else no. */
const VERBS = ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'];
const PROBED = [
  'pods',
  'pods/status',
  'replicationcontrollers',
  'replicationcontrollers/status',
  'replicasets.apps',
  'replicasets.apps/status',
  'endpoints',
  'endpointslices.discovery.k8s.io',
  'nodes',
  'nodes/status',
  'services',
  'events',
  'events.events.k8s.io',
  'leases.coordination.k8s.io',
  'secrets',
  'configmaps',
  'serviceaccounts/token',
];

/**
 * granted lists what ROLES grant an identity as `verb resource[.group]`, kubectl's spelling (ROLES' subresources are
 * all core), and a rule of resourceNames as `verb resource[.group] name` for each name: on the resource as a whole
 * it grants nothing.
 */
function granted(id: string): Set<string> {
  const named = (res: string, group: string): string => {
    const [resource = '', subresource] = res.split('/');
    return `${group === '' ? resource : `${resource}.${group}`}${subresource === undefined ? '' : `/${subresource}`}`;
  };
  const checks = (r: (typeof ROLES)[string][number], res: string, g: string): string[] =>
    r.verbs.flatMap((v) => (r.resourceNames ?? ['']).map((name) => `${v} ${named(res, g)} ${name}`.trimEnd()));
  // A rule on every resource of every group (the namespace controller's content passes) grants its verbs on each
  // probed resource and subresource too.
  const everything = (r: (typeof ROLES)[string][number]): string[] =>
    r.apiGroups.includes('*') && r.resources.includes('*')
      ? r.verbs.flatMap((v) => PROBED.map((p) => `${v} ${p}`))
      : [];
  return new Set(
    (ROLES[id] ?? []).flatMap((r) => [
      ...r.apiGroups.flatMap((g) => r.resources.flatMap((res) => checks(r, res, g))),
      ...everything(r),
    ]),
  );
}

/** checkCounts records how many can-i checks each identity went through and how many were yes, printed for the record. */
const checkCounts = new Map<string, { checks: number; yes: number }>();

/**
 * canI asks the apiserver, as a ServiceAccount, each check (`verb resource[.group][/subresource]`; kubectl reads
 * `TYPE/NAME`, so a subresource goes as --subresource) at most `width` at a time; it answers check → yes/no.
 */
async function canI(sa: string, checks: readonly string[], width = 4): Promise<Map<string, boolean>> {
  const answers = new Map<string, boolean>();
  const queue = [...checks];
  await Promise.all(
    Array.from({ length: width }, async () => {
      for (let check = queue.shift(); check !== undefined; check = queue.shift()) {
        const [verb = '', resource = '', name] = check.split(' ');
        const [type = '', subresource] = resource.split('/');
        const run = await kubectl([
          'auth',
          'can-i',
          verb,
          name === undefined ? type : `${type}/${name}`,
          ...(subresource ? [`--subresource=${subresource}`] : []),
          `--as=${sa}`,
        ]);
        assert.ok(run.code === 0 || run.code === 1, `can-i ${check}: ${run.stderr}`);
        answers.set(check, run.code === 0);
      }
    }),
  );
  return answers;
}

describe("deploy/kustomize: the manifests against the stack's real apiserver", () => {
  it("given the example overlay, then a server-side dry run accepts every object, and its pods meet the namespace's restricted Pod Security", async (t) => {
    const objects = await built();
    const ns = objects.find((o) => o.kind === 'Namespace')!.metadata.name;
    const existed = (await kubectl(['get', 'namespace', ns])).code === 0;
    const created = await kubectl(['apply', '-f', resolve(OVERLAY, 'namespace.yaml')]);
    assert.equal(created.code, 0, created.stderr);
    t.after(async () => void (existed || (await kubectl(['delete', 'namespace', ns, '--wait=false']))));
    const run = await kubectl(['apply', '--dry-run=server', '-f', '-'], objects.map((o) => stringify(o)).join('---\n'));
    assert.equal(run.code, 0, run.stderr);
    const accepted = run.stdout.split('\n').filter((l) => l.endsWith('(server dry run)'));
    assert.equal(accepted.length, objects.length, run.stdout);
    assert.deepEqual(objects.map((o) => o.kind).sort(), [
      'ClusterRole',
      'ClusterRole',
      'ClusterRoleBinding',
      'ClusterRoleBinding',
      'ConfigMap',
      'Deployment',
      'Deployment',
      'Deployment',
      'Deployment',
      'Deployment',
      'Deployment',
      'Namespace',
      'ServiceAccount',
      'ServiceAccount',
      'ServiceAccount',
    ]);
    assert.doesNotMatch(run.stderr, /PodSecurity/, 'no pod of the overlay would violate restricted');
  });

  describe('given only the identities applied for real in a throwaway namespace (cluster-scoped names suffixed)', () => {
    const ns = uniqueName('deploy-rbac');
    const suffix = `:${ns}`;
    const sa = (name: string): string => `system:serviceaccount:${ns}:${name}`;
    const matrix = VERBS.flatMap((v) => PROBED.map((r) => `${v} ${r}`));
    const cleanup: string[][] = [['delete', 'namespace', ns, '--wait=false']];
    after(async () => {
      for (const args of cleanup) await kubectl(args);
    });

    it('applies the ServiceAccounts, ClusterRoles and ClusterRoleBindings of the overlay', async () => {
      const identities = (await built())
        .filter((o) => ['ServiceAccount', 'ClusterRole', 'ClusterRoleBinding'].includes(o.kind))
        .map((o) => ({
          ...o,
          metadata: {
            ...o.metadata,
            ...(o.kind === 'ServiceAccount' ? { namespace: ns } : { name: o.metadata.name + suffix }),
          },
          ...(o.roleRef ? { roleRef: { ...o.roleRef, name: o.roleRef.name + suffix } } : {}),
          ...(o.subjects ? { subjects: o.subjects.map((s) => ({ ...s, namespace: ns })) } : {}),
        }));
      for (const o of identities)
        if (o.kind !== 'ServiceAccount') cleanup.push(['delete', o.kind.toLowerCase(), o.metadata.name]);
      assert.equal((await kubectl(['create', 'namespace', ns])).code, 0);
      const run = await kubectl(['apply', '-f', '-'], identities.map((o) => stringify(o)).join('---\n'));
      assert.equal(run.code, 0, run.stderr);
      assert.equal(identities.length, 7);
    });

    for (const id of ['writer', 'watcher'] as const) {
      it(`the ${id} can do each verb on each resource of its ROLES entry and nothing else of ${VERBS.length}×${PROBED.length} checks`, async () => {
        const grants = granted(id);
        const answers = await canI(sa(`kcm-bus-${id}`), [...new Set([...grants, ...matrix])]);
        const yes = [...answers]
          .filter(([, ok]) => ok)
          .map(([check]) => check)
          .sort();
        assert.deepEqual(yes, [...grants].sort());
        checkCounts.set(id, { checks: answers.size, yes: yes.length });
      });
    }

    it("the reconcilers' account can do none of them", async () => {
      const answers = await canI(sa('kcm-bus-reconciler'), matrix);
      assert.deepEqual(
        [...answers].filter(([, ok]) => ok),
        [],
      );
      checkCounts.set('reconciler', { checks: answers.size, yes: 0 });
      console.log(`can-i checks: ${JSON.stringify(Object.fromEntries(checkCounts))}`);
    });
  });
});
