import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { e2eRecipe } from '@kcm-bus/stack/build/e2e.ts';
import { BESIDE_KCM_BUS, stackConfig } from '@kcm-bus/stack/config.ts';
import { obtain } from '@kcm-bus/stack/obtain.ts';
import { serviceParts } from '@kcm-bus/stack/services.ts';
import { down, up } from '@kcm-bus/stack/stack.ts';
import { startPart } from '@kcm-bus/stack/start.ts';

/**
 * E2E_SPECS are upstream's e2e specs (Kubernetes v1.37.2, test/e2e/apps, network, auth and apimachinery) for the controllers
 * kcm-bus replaces that pass on a kwok stack under upstream's kube-controller-manager, and so must pass under
 * kcm-bus. Left out, because they fail under upstream on kwok too (no containers, no pod network): Deployment
 * proportional scaling, ReplicaSet and ReplicationController "serve a basic image on each replica", EndpointSlice
 * "multiple endpoint IPs" and "multiple ports … in multiple EndpointSlices", EndpointSliceMirroring "multiple subsets
 * and same IP address"; and six ServiceAccounts specs: the token mounts and projections (the stack's apiserver runs
 * without the ServiceAccount admission plugin) and the OIDC discovery, which needs a running container
 * (`npm run e2e -- --all` runs every spec of these controllers). Of the ResourceQuota specs (21 pass under upstream), the
 * eight here cover each evaluator and the metadata-only counts; the rest run with `npm run e2e -- --focus
 * '\[sig-api-machinery\] ResourceQuota '` (docs/parity.md lists them), so that `npm run e2e` keeps to its time.
 */
export const E2E_SPECS: readonly string[] = [
  '[sig-apps] Deployment Deployment should have a working scale subresource [Conformance]',
  '[sig-apps] Deployment RecreateDeployment should delete old pods and create new ones [Conformance]',
  '[sig-apps] Deployment RollingUpdateDeployment should delete old pods and create new ones [Conformance]',
  '[sig-apps] Deployment deployment reaping should cascade to its replica sets and pods',
  '[sig-apps] Deployment deployment should delete old replica sets [Conformance]',
  '[sig-apps] Deployment deployment should support rollover [Conformance]',
  '[sig-apps] Deployment iterative rollouts should eventually progress',
  '[sig-apps] Deployment should run the lifecycle of a Deployment [Conformance]',
  '[sig-apps] Deployment should validate Deployment Status endpoints [Conformance]',
  '[sig-apps] Deployment test Deployment ReplicaSet orphaning and adoption regarding controllerRef',
  '[sig-apps] ReplicaSet Replace and Patch tests [Conformance]',
  '[sig-apps] ReplicaSet Replicaset should have a working scale subresource [Conformance]',
  '[sig-apps] ReplicaSet should adopt matching pods on creation and release no longer matching pods [Conformance]',
  '[sig-apps] ReplicaSet should list and delete a collection of ReplicaSets [Conformance]',
  '[sig-apps] ReplicaSet should surface a failure condition on a common issue like exceeded quota',
  '[sig-apps] ReplicaSet should validate Replicaset Status endpoints [Conformance]',
  '[sig-apps] ReplicationController should adopt matching pods on creation [Conformance]',
  '[sig-apps] ReplicationController should get and update a ReplicationController scale [Conformance]',
  '[sig-apps] ReplicationController should release no longer matching pods [Conformance]',
  '[sig-apps] ReplicationController should surface a failure condition on a common issue like exceeded quota [Conformance]',
  '[sig-apps] ReplicationController should test the lifecycle of a ReplicationController [Conformance]',
  '[sig-network] EndpointSlice should create Endpoints and EndpointSlices for Pods matching a Service [Conformance]',
  '[sig-network] EndpointSlice should create and delete EndpointSlices for a Service with a selector that matches no pods [Conformance]',
  '[sig-network] EndpointSlice should support creating EndpointSlice API operations [Conformance]',
  '[sig-network] EndpointSliceMirroring should mirror a custom Endpoints resource through create update and delete [Conformance]',
  '[sig-network] Endpoints should test the lifecycle of an Endpoint [Conformance]',
  '[sig-network] EndpointsController should create Endpoints for Pods matching a Service [Conformance]',
  '[sig-network] EndpointsController should create and delete Endpoints for a Service with a selector that matches no pods [Conformance]',
  '[sig-auth] ServiceAccounts no secret-based service account token should be auto-generated',
  '[sig-auth] ServiceAccounts should create a serviceAccountToken and ensure a successful TokenReview [Conformance]',
  '[sig-auth] ServiceAccounts should guarantee kube-root-ca.crt exist in any namespace [Conformance]',
  '[sig-auth] ServiceAccounts should run through the lifecycle of a ServiceAccount [Conformance]',
  '[sig-auth] ServiceAccounts should update a ServiceAccount [Conformance]',
  '[sig-api-machinery] Namespaces should apply a finalizer to a Namespace [Conformance] [Serial]',
  '[sig-api-machinery] Namespaces should apply an update to a Namespace [Conformance] [Serial]',
  '[sig-api-machinery] Namespaces should apply changes to a namespace status [Conformance] [Serial]',
  '[sig-api-machinery] Namespaces should delete fast enough (90 percent of 100 namespaces in 150 seconds) [Serial]',
  '[sig-api-machinery] Namespaces should ensure that all pods are removed when a namespace is deleted [Conformance] [Serial]',
  '[sig-api-machinery] Namespaces should ensure that all services are removed when a namespace is deleted [Conformance] [Serial]',
  '[sig-api-machinery] Namespaces should patch a Namespace [Conformance] [Serial]',
  '[sig-api-machinery] OrderedNamespaceDeletion namespace deletion should delete pod first [Conformance]',
  '[sig-api-machinery] ResourceQuota should create a ResourceQuota and ensure its status is promptly calculated. [Conformance]',
  '[sig-api-machinery] ResourceQuota should create a ResourceQuota and capture the life of a service. [Conformance]',
  '[sig-api-machinery] ResourceQuota should create a ResourceQuota and capture the life of a secret. [Conformance]',
  '[sig-api-machinery] ResourceQuota should create a ResourceQuota and capture the life of a pod. [Conformance]',
  '[sig-api-machinery] ResourceQuota should create a ResourceQuota and capture the life of a configMap. [Conformance]',
  '[sig-api-machinery] ResourceQuota should create a ResourceQuota and capture the life of a replica set. [Conformance]',
  '[sig-api-machinery] ResourceQuota should create a ResourceQuota and capture the life of a persistent volume claim with a storage class',
  '[sig-api-machinery] ResourceQuota should verify ResourceQuota with best effort scope. [Conformance]',
];

/** ALL_SPECS selects every spec of the controllers kcm-bus replaces, passing on kwok or not. */
export const ALL_SPECS =
  '\\[sig-apps\\] (ReplicaSet|Deployment|ReplicationController) |\\[sig-network\\] (EndpointSlice|EndpointsController|Endpoints )|\\[sig-auth\\] ServiceAccounts |\\[sig-api-machinery\\] (Namespaces|OrderedNamespaceDeletion|ResourceQuota) ';

/**
 * SKIP leaves out what needs a cloud, a real node or a cluster of its own for long (disruptive and slow specs, features
 * behind gates). Serial specs run: ginkgo runs the specs one at a time here, on a stack of their own.
 */
const SKIP = 'Provider:|cloud load-balancer|\\[Disruptive\\]|\\[Slow\\]|\\[Feature:';

/**
 * specsFocus is a ginkgo focus that selects exactly the named specs (their text, regexp characters escaped). Ginkgo
 * matches the focus against more than the spec's text (a `^` before it selects nothing), so each spec is anchored at
 * a word boundary and at the end.
 */
export function specsFocus(specs: readonly string[]): string {
  return specs.map((s) => `(^|\\s)${s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`).join('|');
}

/** E2eArm says whose controllers the specs run under: kcm-bus's services, or upstream's kube-controller-manager alone. */
export type E2eArm = 'kcm-bus' | 'upstream';

/** SpecResult is one spec's outcome: its full text, its state (passed, failed, ...) and how long it took. */
export type SpecResult = { readonly spec: string; readonly state: string; readonly seconds: number };

type SpecReport = {
  readonly ContainerHierarchyTexts?: readonly string[];
  readonly LeafNodeText?: string;
  readonly State: string;
  readonly RunTime?: number;
};

/** specResults reads ginkgo's JSON report: every spec that ran (skipped ones aside). */
function specResults(reportFile: string): readonly SpecResult[] {
  const suites = JSON.parse(readFileSync(reportFile, 'utf8')) as { SpecReports?: SpecReport[] }[];
  return suites
    .flatMap((s) => s.SpecReports ?? [])
    .filter((r) => r.LeafNodeText && r.State !== 'skipped')
    .map((r) => ({
      spec: [...(r.ContainerHierarchyTexts ?? []), r.LeafNodeText].join(' '),
      state: r.State,
      seconds: (r.RunTime ?? 0) / 1e9,
    }));
}

function run(bin: string, args: readonly string[], stdio: 'inherit' | 'ignore'): Promise<number> {
  return new Promise((resolve) => spawn(bin, args, { stdio }).on('close', (code) => resolve(code ?? 1)));
}

/**
 * runE2e obtains upstream's e2e binary (built once into the cache), brings up a stack of its own (profile e2e, two
 * kwok nodes, ports from 17400 unless KCM_BUS_E2E_PORT_BASE says otherwise: not KCM_BUS_PORT_BASE, which
 * places the test stack beside it), starts kcm-bus's services on it for that
 * arm (upstream's kube-controller-manager then runs every other controller; for the upstream arm, all of them), runs
 * the focused specs and returns each one's result. The stack is stopped and its state removed, whatever happened.
 */
export async function runE2e(
  arm: E2eArm,
  focus: string,
  log: (line: string) => void,
  stdio: 'inherit' | 'ignore' = 'inherit',
): Promise<readonly SpecResult[]> {
  const binary = join(await obtain(e2eRecipe, log), 'bin', 'e2e.test');
  const c = stackConfig('e2e', {
    ...process.env,
    KCM_BUS_RUN_DIR: undefined,
    KCM_BUS_PORT_BASE: process.env['KCM_BUS_E2E_PORT_BASE'] ?? '17400',
    KCM_BUS_NODES: '2',
    KCM_BUS_KCM_CONTROLLERS: arm === 'upstream' ? '*' : BESIDE_KCM_BUS,
  });
  try {
    const endpoints = await up(c, log);
    if (arm === 'kcm-bus') for (const part of serviceParts(c, endpoints)) await startPart(c, part, log);
    const report = join(c.dir, `e2e-${arm}.json`);
    await run(
      binary,
      [
        '--kubeconfig',
        endpoints.kubeconfig,
        '--provider',
        'skeleton',
        '--ginkgo.no-color',
        `--ginkgo.focus=${focus}`,
        `--ginkgo.skip=${SKIP}`,
        `--ginkgo.json-report=${report}`,
      ],
      stdio,
    );
    if (!existsSync(report)) throw new Error(`the e2e binary wrote no report (${report})`);
    const results = specResults(report);
    if (results.length === 0)
      throw new Error(`the e2e binary ran no spec: the focus selected none of its specs (${focus})`);
    return results;
  } finally {
    log(`stopping the e2e stack: ${(await down(c, { purge: true })).join(', ')}`);
  }
}
