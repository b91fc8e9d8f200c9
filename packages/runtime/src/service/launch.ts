/*
 * How every kcm-bus service is started: the local stack, the tests, the benchmarks, `kcm-bus replay`, the
 * Dockerfiles (their ENV and CMD lines are generated from these: npm run generate) and the Deployments (deploy.test.ts
 * holds their command to the Dockerfile's). Both are read at process start, so the launcher sets them; a service
 * cannot.
 */

/**
 * SERVICE_NODE_ARGS are node's flags before a service's script.
 * - `--max-semi-space-size=16` (MB) caps V8's young generation at its long-standing 64-bit default. Left to itself,
 *   Node 24 on a machine of many GB grew a watcher's young generation to 128 MB under a burst (a restore, a relist,
 *   the first list of every kind), and the pages it grew stayed resident after V8 shrank it: the watcher held 161 MB
 *   in V8's 256 KB pages with 63 MB of heap committed (`/proc/<pid>/smaps`; docs/benchmarks.md, "What a service's memory is").
 * - `--disable-warning=TimeoutNegativeWarning`: kafkajs sets negative timeouts (request-queue-idle.kafka.ts).
 */
export const SERVICE_NODE_ARGS: readonly string[] = [
  '--disable-warning=TimeoutNegativeWarning',
  '--max-semi-space-size=16',
];

/**
 * SERVICE_MALLOC_ENV is glibc's malloc with fixed thresholds instead of its dynamic ones. Node's buffers (Kafka
 * fetch responses of megabytes, the replay of a partition) come from malloc; once such a block is freed, glibc raises
 * its mmap threshold to the block's size, so later ones come from the brk heap, whose freed middle it keeps
 * resident. Measured in S6 (1,000 → 10,000 pods): reconciler-rc's brk heap grew 9-12 MB without these and 3 MB
 * with them. The values are glibc's own defaults (128 KiB), fixed: mallopt(M_MMAP_THRESHOLD) and M_TRIM_THRESHOLD.
 * `MALLOC_ARENA_MAX=2` lets V8's and libuv's threads share two arenas instead of one each (up to 8 per core): each
 * arena keeps its own freed middle resident, so a process's arenas grew for half an hour after its start under the
 * soak's churn (a writer's from 14-15 to 24-25 MB; with two, a writer's grew 0.4 MB over its last 20 minutes;
 * docs/benchmarks.md, "Soak").
 */
export const SERVICE_MALLOC_ENV: Readonly<Record<string, string>> = {
  MALLOC_MMAP_THRESHOLD_: '131072',
  MALLOC_TRIM_THRESHOLD_: '131072',
  MALLOC_ARENA_MAX: '2',
};

/** ServiceLaunch is how to run one service's script: the node binary, its flags and arguments, its environment. */
export type ServiceLaunch = {
  readonly command: string;
  readonly args: readonly string[];
  readonly env: NodeJS.ProcessEnv;
};

/**
 * serviceLaunch runs a service's script (or a subcommand of it) with this process's node under SERVICE_NODE_ARGS and
 * SERVICE_MALLOC_ENV over the environment given: the one recipe the stack, the harness and `kcm-bus replay` share.
 */
export function serviceLaunch(
  script: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
): ServiceLaunch {
  return {
    command: process.execPath,
    args: [...SERVICE_NODE_ARGS, script, ...args],
    env: { ...env, ...SERVICE_MALLOC_ENV },
  };
}
