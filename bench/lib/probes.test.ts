import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mallocHeapBytes, rssBytes } from './probes.ts';

test('mallocHeapBytes reads the resident brk heap of a live process: part of its RSS', () => {
  const heap = mallocHeapBytes(process.pid);
  assert.ok(heap > 0, `a Node process has a resident [heap], read ${heap}`);
  assert.ok(heap < rssBytes(process.pid));
});

test('mallocHeapBytes and rssBytes fail on a process that does not exist', () => {
  assert.throws(() => mallocHeapBytes(2 ** 22 + 1), /ENOENT/);
  assert.throws(() => rssBytes(2 ** 22 + 1), /ENOENT/);
});
