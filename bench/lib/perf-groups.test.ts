import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { callerOf, functionGroup, packageOf, parseSamples, type Sample, summarizeSamples } from './perf-groups.ts';

/** SCRIPT is `perf script -F comm,pid,tid,ip,sym,dso` of three samples: two of a service, one of another process. */
const SCRIPT = `MainThread 4242/4242
\t    7f0a1b2c3d4e Builtins_LoadIC_Megamorphic+0x12 (/usr/bin/node)
\t    7f0a00001000 JS:*fetch /app/node_modules/kafkajs/src/consumer/consumerGroup.js:446:15 (/tmp/perf-4242.map)
\t    7f0a00002000 JS:*run /app/packages/runtime/src/bus/group.kafka.ts:40:3 (/tmp/perf-4242.map)

V8Worker 4242/4250
\t    5a5a5a5a5a5a v8::internal::ConcurrentMarking::RunMajor+0x80 (/usr/bin/node)

kube-apiserver 77/80
\t    ffffffff815e03e9 do_syscall_64+0x1 ([kernel.kallsyms])
`;

const samplesOf = async (text: string): Promise<Sample[]> => {
  const out: Sample[] = [];
  for await (const s of parseSamples(text.split('\n'))) out.push(s);
  return out;
};

describe('perf-groups: on-CPU samples by what they do and whom they ran for', () => {
  it('given perf script output with call chains, then each sample has its process, thread name and frames innermost first', async () => {
    const samples = await samplesOf(SCRIPT);
    assert.deepEqual(
      samples.map((s) => [s.pid, s.comm, s.frames.length]),
      [
        [4242, 'MainThread', 3],
        [4242, 'V8Worker', 1],
        [77, 'kube-apiserver', 1],
      ],
    );
    assert.deepEqual(samples[0]!.frames[0], { sym: 'Builtins_LoadIC_Megamorphic', dso: '/usr/bin/node' });
  });

  it('given innermost frames, then each is named by what it does: the kernel, JavaScript, GC, the compiler, libc', () => {
    assert.equal(functionGroup({ sym: 'do_syscall_64', dso: '[kernel.kallsyms]' }), 'kernel (syscalls, page faults)');
    assert.equal(functionGroup({ sym: 'JS:*f /app/x.ts:1:1', dso: '/tmp/perf-1.map' }), 'JavaScript');
    assert.equal(functionGroup({ sym: 'v8::internal::Scavenger::Process', dso: '/usr/bin/node' }), 'garbage collector');
    assert.equal(
      functionGroup({ sym: 'v8::internal::compiler::turboshaft::Graph', dso: '/usr/bin/node' }),
      'JIT compiler, parser',
    );
    assert.equal(functionGroup({ sym: 'fe_mul', dso: '/usr/bin/node' }), 'Ed25519 (signatures)');
    for (const sym of ['Builtins_LoadIC_Megamorphic', 'Builtins_KeyedStoreIC', 'v8::internal::StringTable::LookupKey'])
      assert.equal(functionGroup({ sym, dso: '/usr/bin/node' }), 'property access, strings (inline caches)', sym);
    assert.equal(functionGroup({ sym: 'Builtins_PromiseFulfillReactionJob', dso: '' }), 'promises, async functions');
    assert.equal(functionGroup({ sym: '__libc_recv', dso: '/usr/lib/libc.so.6' }), 'malloc, memcpy');
    assert.equal(functionGroup({ sym: 'Builtins_ArrayMap', dso: '/usr/bin/node' }), 'other V8 and Node built-ins');
  });

  it("given a sample, then it ran for the nearest JavaScript frame's package, or for V8's worker threads", async () => {
    const [main, worker] = await samplesOf(SCRIPT);
    assert.equal(callerOf(main!), 'kafkajs');
    assert.equal(callerOf(worker!), "V8's worker threads (GC, JIT)");
    assert.equal(packageOf({ sym: 'JS:^emit node:events:480:20', dso: '/tmp/perf-1.map' }), 'node (built-in modules)');
    assert.equal(packageOf({ sym: 'JS:*x /app/services/writer/src/main.ts:1:1', dso: '' }), 'services/writer');
  });

  it("given samples of several processes, then only the services' are reported, each under its name", async () => {
    const report = await summarizeSamples(parseSamples(SCRIPT.split('\n')), new Map([[4242, 'reconciler-rc']]));
    assert.match(report, /^== reconciler-rc \(pid 4242\): 2 on-CPU samples$/m);
    assert.match(
      report,
      /every thread:\n +50\.0 % {2}(garbage collector|property access.*)\n +50\.0 % {2}(garbage collector|property access.*)\n/,
    );
    assert.match(report, /^ +50\.0 % {2}\[worker\] garbage collector$/m);
    assert.match(report, /^ +50\.0 % {2}kafkajs$/m);
    assert.doesNotMatch(report, /kube-apiserver|kernel/);
  });
});
