/**
 * CPU profiles of the kcm-bus services under a bench run (`BENCH_CPU_PROFILE=1 npm run bench -- --only s1`): each
 * service the bench starts runs with `--cpu-prof` (NODE_OPTIONS, so only the Node children are profiled) and writes
 * a V8 .cpuprofile into bench/out/profiles when it exits; open one in Chrome DevTools or speedscope for its flame
 * graph. summarizeProfiles prints, per profile, where the CPU went by package and the functions with the most
 * self time. V8 samples on a wall-clock timer, so a thread preempted in a syscall counts its wait to that frame
 * (`writeBuffer`); BENCH_PERF (perf-profile.ts) counts only time on the CPU.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

type CallFrame = { readonly functionName: string; readonly url: string; readonly lineNumber: number };
type ProfileNode = { readonly id: number; readonly callFrame: CallFrame };
type CpuProfile = {
  readonly nodes: readonly ProfileNode[];
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
};

/** profileOptions is the NODE_OPTIONS value that makes each service write its profile into `dir` on exit. */
export function profileOptions(dir: string): string {
  return `--cpu-prof --cpu-prof-dir=${dir}`;
}

/** Share is a name and the milliseconds of CPU spent in it (self time). */
type Share = { readonly name: string; readonly ms: number };

/** packageOfPath names the package a source file's path is in: a dependency's, or one of ours (`services/writer`). */
export function packageOfPath(path: string): string | undefined {
  return (
    /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path)?.[1] ?? /\/((?:packages|services|schemas)\/[^/]+)\//.exec(path)?.[1]
  );
}

/** where names the part of the code a frame belongs to: a dependency, one of ours, Node itself, or V8's own work. */
export function where(frame: CallFrame): string {
  const known = packageOfPath(frame.url);
  if (known !== undefined) return known;
  if (frame.url.startsWith('node:')) return 'node (built-in modules)';
  return frame.url === '' ? frame.functionName || '(native)' : 'other';
}

/** NOT_BUSY are V8's pseudo-frames for time the process was not running JavaScript or GC. */
const NOT_BUSY = new Set(['(idle)', '(program)']);

/** selfTimes adds each busy sample's time delta to the frame it hit, keyed by `key`. */
function selfTimes(p: CpuProfile, key: (frame: CallFrame) => string): Share[] {
  const byId = new Map(p.nodes.map((n) => [n.id, n.callFrame]));
  const totals = new Map<string, number>();
  p.samples.forEach((id, i) => {
    const frame = byId.get(id);
    if (frame !== undefined && !NOT_BUSY.has(frame.functionName))
      totals.set(key(frame), (totals.get(key(frame)) ?? 0) + (p.timeDeltas[i] ?? 0) / 1000);
  });
  return [...totals].map(([name, ms]) => ({ name, ms })).sort((a, b) => b.ms - a.ms);
}

/** serviceOf finds which service a profile is of: the main script among its frames. */
function serviceOf(p: CpuProfile): string {
  for (const n of p.nodes) {
    const m = /services\/([^/]+)\/src\/main\.ts/.exec(n.callFrame.url);
    if (m) return m[1]!;
  }
  return 'unknown';
}

/** summarize is one profile's report: busy CPU time, the packages' shares and the top functions by self time. */
export function summarize(p: CpuProfile, top = 12): { readonly service: string; readonly text: string } {
  const packages = selfTimes(p, where);
  const busy = packages.reduce((sum, s) => sum + s.ms, 0);
  const functions = selfTimes(
    p,
    (f) => `${f.functionName || '(anonymous)'} ${where(f)}${f.url === '' ? '' : `:${f.lineNumber + 1}`}`,
  );
  const pct = (ms: number): string => `${((100 * ms) / busy).toFixed(1).padStart(5)} %`;
  const lines = [
    `busy ${(busy / 1000).toFixed(1)} CPU-s (idle and (program) left out)`,
    'by package:',
    ...packages.slice(0, top).map((s) => `  ${pct(s.ms)}  ${s.name}`),
    'by function (self time):',
    ...functions.slice(0, top).map((s) => `  ${pct(s.ms)}  ${s.name}`),
  ];
  return { service: serviceOf(p), text: lines.join('\n') };
}

/** summarizeProfiles writes `<service>-<file>.txt` beside each profile in `dir` and returns the reports, joined. */
export function summarizeProfiles(dir: string): string {
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.cpuprofile'))
    .sort();
  return files
    .map((f) => {
      const { service, text } = summarize(JSON.parse(readFileSync(join(dir, f), 'utf8')) as CpuProfile);
      writeFileSync(join(dir, `${service}-${f.replace(/\.cpuprofile$/, '.txt')}`), `${text}\n`);
      return `== ${service} (${f})\n${text}`;
    })
    .join('\n\n');
}
