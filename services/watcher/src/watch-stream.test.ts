import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { isGone, LineSplitter, parseWatchLine, WatchStreamError } from './watch-stream.ts';

describe('the watch stream', () => {
  it('given lines split across chunks, then it yields whole lines only', () => {
    const lines = new LineSplitter();
    assert.deepEqual(lines.push('{"type":"ADDED","object":{}}\n{"type":"MOD'), ['{"type":"ADDED","object":{}}']);
    assert.deepEqual(lines.push('IFIED","object":{}}\n'), ['{"type":"MODIFIED","object":{}}']);
  });

  it('given garbage, then parsing fails with a WatchStreamError that quotes it', () => {
    assert.throws(
      () => parseWatchLine('<html>bad gateway</html>'),
      (e: unknown) => e instanceof WatchStreamError && /bad gateway/.test(e.message),
    );
    assert.throws(() => parseWatchLine('{"type":"NOPE","object":{}}'), WatchStreamError);
  });

  it('given an ERROR event with code 410, then it is Gone', () => {
    assert.equal(isGone(parseWatchLine('{"type":"ERROR","object":{"kind":"Status","code":410}}')), true);
    assert.equal(isGone(parseWatchLine('{"type":"ERROR","object":{"kind":"Status","code":500}}')), false);
  });
});
