import { readdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { pidFile } from '@kcm-bus/stack/procs.ts';
import type { StackEndpoints } from '@kcm-bus/stack/endpoints.ts';

/** CLK_TCK is the kernel's clock ticks per second for /proc/<pid>/stat times (100 on Linux). */
const CLK_TCK = 100;

/** cpuSeconds is a process's user + system CPU time so far (/proc/<pid>/stat). */
export function cpuSeconds(pid: number): number {
  return statSeconds(`/proc/${pid}/stat`);
}

/** systemSeconds is the part of cpuSeconds spent in the kernel (stime): syscalls, page faults, its network stack. */
export function systemSeconds(pid: number): number {
  return statSeconds(`/proc/${pid}/stat`, 'system');
}

function statSeconds(path: string, part: 'all' | 'system' = 'all'): number {
  const stat = readFileSync(path, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const system = Number(fields[12]);
  return (part === 'system' ? system : Number(fields[11]) + system) / CLK_TCK;
}

/** JIT_THREAD matches HotSpot's JIT compiler threads as /proc names them (cut to 15 characters). */
const JIT_THREAD = /^C[12] CompilerThre/;

/** jitThreads are a process's JIT compiler threads (/proc/<pid>/task/<tid>/comm): HotSpot's; none for other processes. */
function jitThreads(pid: number): string[] {
  return readdirSync(`/proc/${pid}/task`).filter((tid) => {
    try {
      return JIT_THREAD.test(readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8'));
    } catch {
      return false; // the thread ended between the listing and the read
    }
  });
}

/**
 * jitSeconds is the CPU time so far of a JVM's JIT compiler threads: the broker compiles its hot paths while a bench
 * runs, a cost a long-running broker paid long before. A compiler thread that ended meanwhile takes its time with it
 * (HotSpot starts and stops them as the queue of methods to compile grows).
 */
function jitSeconds(pid: number): number {
  let total = 0;
  for (const tid of jitThreads(pid)) {
    try {
      total += statSeconds(`/proc/${pid}/task/${tid}/stat`);
    } catch {
      // the thread ended meanwhile
    }
  }
  return total;
}

/** CpuMeter measures named processes' CPU-seconds from its start; `read` gives each one's since then. */
export type CpuMeter = { readonly read: () => Readonly<Record<string, number>> };

/**
 * cpuMeter starts measuring the processes, by name (utime + stime, the way issue 18's table was read), and reads
 * `<name> system`, the part of it in the kernel; for a JVM (Kafka, the registry) it also reads `<name> JIT`, the part
 * of it its JIT compiler threads used.
 */
export function cpuMeter(pids: Readonly<Record<string, number>>): CpuMeter {
  const readers = Object.entries(pids).flatMap(([name, pid]): [string, () => number][] => [
    [name, () => cpuSeconds(pid)],
    [`${name} system`, () => systemSeconds(pid)],
    ...(jitThreads(pid).length > 0 ? [[`${name} JIT`, () => jitSeconds(pid)] as [string, () => number]] : []),
  ]);
  const start = new Map(readers.map(([name, read]) => [name, read()]));
  return { read: () => Object.fromEntries(readers.map(([name, read]) => [name, read() - (start.get(name) ?? 0)])) };
}

/** BUS_INFRA are the stack parts the kcm-bus services lean on, besides the apiserver both systems share. */
export const BUS_INFRA = ['kafka', 'registry', 'redis'] as const;

/** stackPids are the pids the bench stack recorded for its parts (`<run>/pids/<part>.pid`). */
export function stackPids(e: StackEndpoints, parts: readonly string[]): Record<string, number> {
  return Object.fromEntries(
    parts.map((part) => [part, Number(readFileSync(pidFile(dirname(e.kubeconfig), part), 'utf8').trim())]),
  );
}

/** sum adds the named figures of a reading. */
export function sum(reading: Readonly<Record<string, number>>, names: readonly string[]): number {
  return names.reduce((total, name) => total + (reading[name] ?? 0), 0);
}
