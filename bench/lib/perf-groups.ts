/**
 * Where a kcm-bus service's CPU goes, from `perf record -a -g` (bench/lib/perf-profile.ts): the kernel's on-CPU
 * samples, so a thread preempted in a syscall counts nothing, where V8's --cpu-prof samples on a wall-clock timer
 * and puts the time a thread waited to run again on the frame it resumed in (`writeBuffer` after a socket write). A
 * sample is grouped twice: by what its innermost frame does (GC, the JIT compiler, inline caches, promises, the
 * kernel, JavaScript itself; functionGroup), and by the nearest JavaScript frame's package (the code that asked for
 * it; packageOf). The services run with `--perf-basic-prof`, which names their JIT code in /tmp/perf-<pid>.map.
 */

import { packageOfPath } from './cpu-profile.ts';

/** Frame is one line of a sample's call chain in `perf script`: the symbol and the object it is in. */
export type Frame = { readonly sym: string; readonly dso: string };

/** Sample is one on-CPU sample: the process and thread, the thread's name, its call chain from the innermost frame. */
export type Sample = { readonly pid: number; readonly comm: string; readonly frames: readonly Frame[] };

/** anyOf matches a symbol that contains one of the parts (each a regular expression's source). */
const anyOf = (...parts: string[]): RegExp => new RegExp(parts.join('|'));

/** GROUPS name what a symbol of V8, Node or libc does, tried in order; the first that matches wins. */
const GROUPS: readonly (readonly [string, RegExp])[] = [
  [
    'garbage collector',
    anyOf(
      ...['Heap', 'Mark(ing|Compact)', 'Scaveng', 'Sweep', 'Evacuat', 'GCTracer', 'MemoryAllocator', 'PagedSpace'],
      ...['MinorMS', 'RememberedSet', 'SlotSet', 'BodyDescriptor', 'SizeFromMap', 'IteratePointers', 'ObjectVisitor'],
      ...['WeakObjects', 'MemoryChunk'],
    ),
  ],
  [
    'JIT compiler, parser',
    anyOf(
      ...['compiler::', 'turboshaft', '[Mm]aglev', 'Baseline', 'Parser', 'Scanner', 'AstValueFactory', 'Bytecode'],
      ...['Compiler', 'CalculateLineEnds', 'Interpreter', 'Deoptimiz', 'FeedbackVector', 'SharedFunctionInfo', 'Zone'],
    ),
  ],
  ['JSON', anyOf('Json', 'JSON')],
  [
    'Ed25519 (signatures)',
    anyOf('fe_mul', 'fe_sq', 'ed25519', 'ED25519', 'x25519', 'ge_', 'sc_muladd', 'sc_reduce', 'SHA512', 'sha512'),
  ],
  [
    'malloc, memcpy',
    anyOf('malloc', 'free', '_int_', 'unlink_chunk', 'arena', 'consolidate', 'memmove', 'memcpy', 'memset', 'tcache'),
  ],
  ['promises, async functions', anyOf('Promise', 'Async', 'Await', 'Microtask', 'Generator')],
  [
    'property access, strings (inline caches)',
    anyOf(
      ...['IC(_|$|\\b)', 'Transition', 'LookupIterator', 'Megamorphic', 'Map::', 'Descriptor', 'StringTable'],
      ...['Internaliz', 'RawHash', 'String::', 'OrderedHash', 'KeyAccumulator', 'Elements', 'Property', 'ToString'],
      ...['StringAdd', 'NumberToString', 'Factory', 'Runtime_'],
    ),
  ],
  ['Buffers, typed arrays', anyOf('Buffer', 'TypedArray', 'Utf8', 'Latin1', 'StringBytes', 'DataView')],
];

/** isJs: a frame of JIT-compiled or interpreted JavaScript, as --perf-basic-prof names it (`JS:*name file:line:col`). */
const isJs = (f: Frame): boolean => f.sym.startsWith('JS:');

/** functionGroup names what a sample's innermost frame does. */
export function functionGroup(leaf: Frame | undefined): string {
  if (leaf === undefined) return 'unknown';
  if (leaf.dso.includes('kernel')) return 'kernel (syscalls, page faults)';
  if (isJs(leaf) || leaf.dso.startsWith('/tmp/perf-')) return 'JavaScript';
  for (const [name, pattern] of GROUPS) if (pattern.test(leaf.sym)) return name;
  return leaf.dso.includes('libc') ? 'malloc, memcpy' : 'other V8 and Node built-ins';
}

/** packageOf names the package of a JavaScript frame's file: a dependency, one of ours, or Node's own modules. */
export function packageOf(f: Frame): string {
  const known = packageOfPath(f.sym);
  if (known !== undefined) return known;
  // A frame without a file is code made by `new Function` (avsc's), or an address V8 gave other code since the map
  // named it: --perf-basic-prof appends names and never takes one back.
  return / node:/.test(f.sym) ? 'node (built-in modules)' : 'JavaScript without a file (generated, or moved)';
}

/** MAIN_THREAD: the JavaScript thread's name (Node names it; a thread not yet named is still `node`). */
const MAIN_THREAD = new Set(['MainThread', 'node']);

/** callerOf is whose code a sample ran for: the nearest JavaScript frame's package, or V8's worker threads. */
export function callerOf(s: Sample): string {
  if (!MAIN_THREAD.has(s.comm)) return "V8's worker threads (GC, JIT)";
  const js = s.frames.find(isJs);
  return js === undefined ? 'no JavaScript frame (GC, JIT, event loop)' : packageOf(js);
}

/**
 * parseSamples reads `perf script -F comm,pid,tid,ip,sym,dso` output of a recording with call chains: a sample is
 * a header line `comm pid/tid` and then a line per frame `ip sym (dso)`, innermost first, and a blank line.
 */
export async function* parseSamples(lines: AsyncIterable<string> | Iterable<string>): AsyncGenerator<Sample> {
  let head: { pid: number; comm: string } | undefined;
  let frames: Frame[] = [];
  for await (const line of lines) {
    const header = /^(\S.*?)\s+(\d+)\/\d+\s*$/.exec(line);
    const frame = /^\s+[0-9a-f]+\s+(.*?)\s+\(([^()]*)\)\s*$/.exec(line);
    if (header) {
      if (head) yield { ...head, frames };
      head = { pid: Number(header[2]), comm: header[1]! };
      frames = [];
    } else if (frame && head) frames.push({ sym: frame[1]!.replace(/\+0x[0-9a-f]+$/, ''), dso: frame[2]! });
  }
  if (head) yield { ...head, frames };
}

/** Tally counts samples by name. */
class Tally {
  readonly counts = new Map<string, number>();
  total = 0;
  add(name: string): void {
    this.counts.set(name, (this.counts.get(name) ?? 0) + 1);
    this.total += 1;
  }
  lines(top: number): string[] {
    return [...this.counts]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, n]) => `  ${((100 * n) / this.total).toFixed(1).padStart(5)} %  ${name}`);
  }
}

/**
 * summarizeSamples is a report per process of `services` (pid → its name): by function group, over every thread and by
 * thread, and by caller.
 */
export async function summarizeSamples(
  samples: AsyncIterable<Sample>,
  services: ReadonlyMap<number, string>,
  top = 12,
): Promise<string> {
  const byPid = new Map<number, { all: Tally; groups: Tally; callers: Tally }>();
  for await (const s of samples) {
    if (!services.has(s.pid)) continue;
    const t = byPid.get(s.pid) ?? { all: new Tally(), groups: new Tally(), callers: new Tally() };
    const group = functionGroup(s.frames[0]);
    t.all.add(group);
    t.groups.add(`${MAIN_THREAD.has(s.comm) ? '' : '[worker] '}${group}`);
    t.callers.add(callerOf(s));
    byPid.set(s.pid, t);
  }
  return [...byPid]
    .map(([pid, t]) =>
      [
        `== ${services.get(pid)} (pid ${pid}): ${t.groups.total} on-CPU samples`,
        'by what the innermost frame does, every thread:',
        ...t.all.lines(top),
        'the same, by thread ([worker]: a V8 worker thread):',
        ...t.groups.lines(top),
        'by the nearest JavaScript frame (the code it ran for):',
        ...t.callers.lines(top),
      ].join('\n'),
    )
    .join('\n\n');
}
