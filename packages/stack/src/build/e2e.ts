import { copyFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { obtain, type Recipe } from '../obtain.ts';
import { VERSIONS } from '../versions.ts';
import { go } from './go.ts';
import { kubeModuleRecipe } from './kube.ts';

/**
 * E2E_SUITES are the suites of upstream's e2e tests built in: the ones that test our controllers (apimachinery: the
 * namespace controller; apps: the workload controllers; network: Endpoints and EndpointSlices; auth: service accounts
 * and the root CA).
 */
const E2E_SUITES = ['apimachinery', 'apps', 'auth', 'network'] as const;

/**
 * E2E_MAIN is the test main of upstream's e2e suite (test/e2e/e2e_test.go's, cut down to E2E_SUITES), so the
 * binary stays small.
 */
const E2E_MAIN = `package e2e

import (
	"flag"
	"os"
	"testing"

	"k8s.io/kubernetes/test/e2e"
	"k8s.io/kubernetes/test/e2e/framework"
	"k8s.io/kubernetes/test/e2e/framework/config"
	"k8s.io/kubernetes/test/e2e/framework/testfiles"
	e2etestingmanifests "k8s.io/kubernetes/test/e2e/testing-manifests"
	testfixtures "k8s.io/kubernetes/test/fixtures"

${E2E_SUITES.map((s) => `	_ "k8s.io/kubernetes/test/e2e/${s}"`).join('\n')}
	_ "k8s.io/kubernetes/test/e2e/feature"
	_ "k8s.io/kubernetes/test/e2e/framework/debug/init"
	_ "k8s.io/kubernetes/test/e2e/framework/node/init"
)

func TestMain(m *testing.M) {
	config.CopyFlags(config.Flags, flag.CommandLine)
	framework.RegisterCommonFlags(flag.CommandLine)
	framework.RegisterClusterFlags(flag.CommandLine)
	flag.Parse()
	testfiles.AddFileSource(e2etestingmanifests.GetE2ETestingManifestsFS())
	testfiles.AddFileSource(testfixtures.GetTestFixturesFS())
	framework.AfterReadingAllFlags(&framework.TestContext)
	os.Exit(m.Run())
}

func TestE2E(t *testing.T) { e2e.RunE2ETests(t) }
`;

/**
 * e2eRecipe builds upstream's e2e test binary at the apiserver's version (see docs/parity.md#upstreams-e2e-specs): the stack's
 * Kubernetes build module, renamed, with the suite's test main, compiled by `go test -c`. Obtained on demand by
 * `npm run e2e`, not by `stack up`. Its cache folder is keyed by the suites too, so a checkout that adds one builds
 * anew.
 */
export const e2eRecipe: Recipe = {
  part: 'kube-e2e',
  version: `${VERSIONS.kubernetes}-${E2E_SUITES.join('-')}`,
  async build(dir, log) {
    const moduleDir = await obtain(kubeModuleRecipe, (line) => log.write(`${line}\n`));
    for (const file of ['go.mod', 'go.sum']) copyFileSync(join(moduleDir, file), join(dir, file));
    await go(['mod', 'edit', '-module', 'kcmbus.local/e2e'], dir, log);
    writeFileSync(join(dir, 'e2e_test.go'), E2E_MAIN);
    await go(['test', '-c', '-o', join(dir, 'bin', 'e2e.test'), '.'], dir, log);
  },
};
