/**
 * `BENCH_PERF=1 npm run bench -- --only s1`: Linux perf records every CPU of the machine over the run (`perf record
 * -a -g`, 199 samples a second on each), the kcm-bus services run with `--perf-basic-prof` so their JavaScript has
 * names, and at the end each service process's on-CPU samples are summed by function group and by the package of
 * the code they ran for (bench/lib/perf-groups.ts). On-CPU is the point: V8's --cpu-prof (BENCH_CPU_PROFILE) counts
 * wall-clock time, a preempted thread's wait included. Needs `perf` and permission to record the whole machine.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { copyFileSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { parseSamples, summarizeSamples } from './perf-groups.ts';

/** PERF_NODE_OPTIONS make a service write the names of its JIT code into /tmp/perf-<pid>.map, for perf to read. */
export const PERF_NODE_OPTIONS = '--perf-basic-prof --interpreted-frames-native-stack';

/** MAPS is where V8 writes its perf maps (`--perf-basic-prof`; not configurable). */
const MAPS = '/tmp';

/** PerfRecording is a running `perf record`; stop ends it and resolves once its file is written. */
export type PerfRecording = { readonly stop: () => Promise<void> };

/** startPerf records the whole machine into `<dir>/perf.data` until stopped. */
export function startPerf(dir: string): PerfRecording {
  const perf: ChildProcess = spawn('perf', ['record', '-a', '-g', '-F', '199', '-o', join(dir, 'perf.data')], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = once(perf, 'exit');
  return {
    stop: async () => {
      // perf writes its file on SIGINT, as on Ctrl-C.
      if (perf.exitCode === null) perf.kill('SIGINT');
      await exited;
    },
  };
}

/**
 * serviceMaps are the perf maps of kcm-bus services (pid → service), found by the service's main script among the
 * JavaScript a map names; the bench's own process and any other Node process are left out.
 */
export function serviceMaps(dir = MAPS): Map<number, string> {
  const services = new Map<number, string>();
  for (const file of readdirSync(dir).filter((f) => /^perf-\d+\.map$/.test(f))) {
    const service = /services\/([a-z-]+)\/src\/main\.ts/.exec(readFileSync(join(dir, file), 'utf8'))?.[1];
    if (service !== undefined) services.set(Number(/\d+/.exec(file)![0]), service);
  }
  return services;
}

/**
 * summarizePerf reads the recording in `dir` and reports each service process's samples. The services' maps are then
 * moved into `dir` (perf reads them from /tmp: copy them back to run `perf script` or `perf report` on the recording).
 */
export async function summarizePerf(dir: string): Promise<string> {
  const services = serviceMaps();
  const script = spawn('perf', ['script', '-i', join(dir, 'perf.data'), '-F', 'comm,pid,tid,ip,sym,dso'], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const report = await summarizeSamples(parseSamples(createInterface({ input: script.stdout! })), services);
  for (const map of [...services.keys()].map((pid) => `perf-${pid}.map`)) {
    copyFileSync(join(MAPS, map), join(dir, map));
    rmSync(join(MAPS, map));
  }
  return report;
}
