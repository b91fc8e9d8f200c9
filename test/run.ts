import { spawn } from 'node:child_process';
import { globSync } from 'node:fs';
import { join } from 'node:path';
import { BESIDE_KCM_BUS, stackConfig } from '@kcm-bus/stack/config.ts';
import { down, up } from '@kcm-bus/stack/stack.ts';
import { onInterrupt } from '@kcm-bus/stack/interrupt.ts';
import { say } from '@kcm-bus/stack/cli.ts';
import { sh } from '@kcm-bus/stack/sh.ts';
import { VERSIONS } from '@kcm-bus/stack/versions.ts';

/**
 * The test command: the type check, the formatting and the layering rule first (they fail fast), then the local stack
 * under the "test" profile (its own ports and state, so a running dev stack is not disturbed), then one
 * node:test run over every unit and integration test, then the stack is stopped and its state removed,
 * whether the tests passed or not. With `--unit` (npm run test:unit) it runs only the unit tests: every test
 * but those in test/integration, which are the only ones that need the stack.
 */
const TEST_FILES = [
  'packages/*/src/**/*.test.ts',
  'services/*/src/**/*.test.ts',
  'schemas/**/*.test.ts',
  'bench/**/*.test.ts',
  'test/**/*.test.ts',
];
const NEEDS_STACK = 'test/integration/';

/** OWN_COMMAND holds the tests that bring up stacks of their own, each run by a command of its own (npm run test:kafka-upgrade). */
const OWN_COMMAND = 'test/upgrade/';

/** testFiles lists the test files, sorted; unit: all but those that need the stack. */
function testFiles(unit: boolean): string[] {
  const files = TEST_FILES.flatMap((p) => globSync(p, { exclude: (f) => f.includes('node_modules') })).filter(
    (f) => !f.startsWith(OWN_COMMAND),
  );
  return files.filter((f) => !unit || !f.startsWith(NEEDS_STACK)).sort();
}

function run(command: string, args: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: 'inherit', env });
    child.on('close', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

/** openApiDir is upstream's OpenAPI v3 of the pinned Kubernetes, in the module the stack's build downloaded. */
async function openApiDir(): Promise<string> {
  if (process.env['KCM_BUS_OPENAPI_DIR']) return process.env['KCM_BUS_OPENAPI_DIR'];
  const modcache = (await sh('go', ['env', 'GOMODCACHE'])).trim();
  return join(modcache, `k8s.io/kubernetes@${VERSIONS.kubernetes}`, 'api/openapi-spec/v3');
}

/** unitTests runs the tests that need no stack, against no stack. */
function unitTests(): Promise<number> {
  return run(
    process.execPath,
    ['--disable-warning=TimeoutNegativeWarning', '--test', '--test-concurrency=1', ...testFiles(true)],
    { ...process.env, KAFKAJS_NO_PARTITIONER_WARNING: '1' },
  );
}

/**
 * TEST_KCM_CONTROLLERS is what the test stack's kube-controller-manager runs: every controller beside kcm-bus but
 * upstream's PodGC. Tests bind pods to a node that does not exist (`nowhere`), so that no scheduler or kubelet acts
 * on them, and PodGC deletes such pods 40 s after it first misses the node: pods would vanish under a long test.
 */
const TEST_KCM_CONTROLLERS = `${BESIDE_KCM_BUS},-pod-garbage-collector-controller`;

async function main(): Promise<number> {
  if (process.argv.includes('--unit')) return unitTests();
  const log = say();
  log('type check (tsc --noEmit)');
  if (await run('tsc', ['-p', 'tsconfig.json'])) return 1;
  log('formatting (prettier --check; npm run format applies it)');
  if (await run('prettier', ['--check', '--log-level', 'warn', '**/*.ts'])) return 1;
  log('layering rule (dependency-cruiser)');
  if (
    await run('depcruise', ['--config', '.dependency-cruiser.cjs', 'packages', 'services', 'schemas', 'test', 'bench'])
  )
    return 1;
  const c = stackConfig('test', {
    ...process.env,
    KCM_BUS_NODES: '0',
    KCM_BUS_KCM_CONTROLLERS: process.env['KCM_BUS_KCM_CONTROLLERS'] ?? TEST_KCM_CONTROLLERS,
  });
  const interrupted = onInterrupt(() => down(c, { purge: true }), log);
  try {
    log(`local stack, profile "test" (state: ${c.dir})`);
    await up(c, log);
    const files = testFiles(false);
    log(`${files.length} test files`);
    return await run(
      process.execPath,
      ['--disable-warning=TimeoutNegativeWarning', '--test', '--test-concurrency=1', '--test-timeout=600000', ...files],
      {
        ...process.env,
        KCM_BUS_TEST_STACK: `${c.dir}/endpoints.json`,
        KCM_BUS_TEST_PROFILE: c.profile,
        KCM_BUS_OPENAPI_DIR: await openApiDir(),
        KAFKAJS_NO_PARTITIONER_WARNING: '1',
      },
    );
  } finally {
    interrupted();
    log(`stopping the test stack: ${(await down(c, { purge: true })).join(', ')}`);
  }
}

process.exitCode = await main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : String(err));
  return 1;
});
