import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { pidFile } from '@kcm-bus/stack/procs.ts';
import type { StackEndpoints } from '@kcm-bus/stack/endpoints.ts';

/** CLK_TCK is the kernel's clock ticks per second for /proc/<pid>/stat times (100 on Linux). */
const CLK_TCK = 100;

/** cpuSeconds is a process's user + system CPU time so far (/proc/<pid>/stat). */
export function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLK_TCK;
}

/** CpuMeter measures named processes' CPU-seconds from its start; `read` gives each one's since then. */
export type CpuMeter = { readonly read: () => Readonly<Record<string, number>> };

/** cpuMeter starts measuring the processes, by name (utime + stime, the way issue 18's table was read). */
export function cpuMeter(pids: Readonly<Record<string, number>>): CpuMeter {
  const start = Object.fromEntries(Object.entries(pids).map(([name, pid]) => [name, cpuSeconds(pid)]));
  return { read: () => Object.fromEntries(Object.entries(pids).map(([name, pid]) => [name, cpuSeconds(pid) - (start[name] ?? 0)])) };
}

/** BUS_INFRA are the stack parts the kcm-bus services lean on, besides the apiserver both systems share. */
export const BUS_INFRA = ['kafka', 'registry', 'redis'] as const;

/** stackPids are the pids the bench stack recorded for its parts (`<run>/pids/<part>.pid`). */
export function stackPids(e: StackEndpoints, parts: readonly string[]): Record<string, number> {
  return Object.fromEntries(parts.map((part) => [part, Number(readFileSync(pidFile(dirname(e.kubeconfig), part), 'utf8').trim())]));
}

/** sum adds the named figures of a reading. */
export function sum(reading: Readonly<Record<string, number>>, names: readonly string[]): number {
  return names.reduce((total, name) => total + (reading[name] ?? 0), 0);
}
