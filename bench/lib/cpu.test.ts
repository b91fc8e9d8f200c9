import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { cpuMeter, cpuSeconds, systemSeconds } from './cpu.ts';

/** busyInKernel spends CPU time in syscalls (each read of /proc is one), until the clock has ticked a few times. */
function busyInKernel(): void {
  const until = systemSeconds(process.pid) + 0.05;
  while (systemSeconds(process.pid) < until) for (let i = 0; i < 200; i += 1) readFileSync('/proc/self/stat');
}

describe('cpu: the processes measured, and the part of their time in the kernel', () => {
  it('given a process that made syscalls, then its kernel time is more than none and no more than its CPU time', () => {
    busyInKernel();
    const [system, all] = [systemSeconds(process.pid), cpuSeconds(process.pid)];
    assert.ok(system > 0, `system ${system}`);
    assert.ok(system <= all, `system ${system} of ${all}`);
  });

  it('given a meter, then it reads each process and, beside it, the part of it in the kernel since its start', () => {
    const meter = cpuMeter({ bench: process.pid });
    busyInKernel();
    const reading = meter.read();
    assert.deepEqual(Object.keys(reading), ['bench', 'bench system']);
    assert.ok(reading['bench system']! >= 0.05, `system ${reading['bench system']}`);
    assert.ok(reading['bench system']! <= reading['bench']!, JSON.stringify(reading));
  });
});
