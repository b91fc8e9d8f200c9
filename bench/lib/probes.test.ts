import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mallocArenaBytes, mallocArenasOf, mallocHeapBytes, rssBytes, smapsMappings } from './probes.ts';

test('mallocHeapBytes reads the resident brk heap of a live process: part of its RSS', () => {
  const heap = mallocHeapBytes(process.pid);
  assert.ok(heap > 0, `a Node process has a resident [heap], read ${heap}`);
  assert.ok(heap < rssBytes(process.pid));
});

test('mallocHeapBytes and rssBytes fail on a process that does not exist', () => {
  assert.throws(() => mallocHeapBytes(2 ** 22 + 1), /ENOENT/);
  assert.throws(() => rssBytes(2 ** 22 + 1), /ENOENT/);
});

test('mallocArenasOf counts the brk heap and the 64 MB-aligned arenas, not the other anonymous mappings', () => {
  const mapping = (range: string, perms: string, path: string, sizeKb: number, rssKb: number) =>
    `${range} ${perms} 00000000 00:00 0 ${path}\nSize: ${sizeKb} kB\nKernelPageSize: 4 kB\nRss: ${rssKb} kB\n`;
  const smaps = [
    mapping('55ae56c6e000-55ae56c70000', 'r--p', '/usr/bin/node', 8, 8),
    mapping('55ae57000000-55ae57100000', 'rw-p', '[heap]', 1024, 900),
    // an arena: its read-write start and the reserved rest, 64 MB together, aligned to 64 MB
    mapping('7f0004000000-7f0004400000', 'rw-p', '', 4096, 3000),
    mapping('7f0004400000-7f0008000000', '---p', '', 61440, 0),
    // V8's pages and a thread's stack: anonymous, not malloc's
    mapping('7f0010040000-7f0010080000', 'rw-p', '', 256, 256),
    mapping('7f0020000000-7f0020800000', 'rw-p', '', 8192, 40),
  ].join('');
  assert.equal(mallocArenasOf(smapsMappings(smaps)), (900 + 3000) * 1024);
});

test('mallocArenaBytes reads a live process: part of its RSS', () => {
  const arenas = mallocArenaBytes(process.pid);
  assert.ok(arenas > 0 && arenas < rssBytes(process.pid), `read ${arenas}`);
});
