import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compareResourceVersion, isWatermarkKey, WATERMARK_KEY } from './watch-record.ts';

describe('the watch-record contract', () => {
  it('given decimal resourceVersions, then they compare as integers of any size, not as text (CompareResourceVersion)', () => {
    assert.deepEqual(
      [compareResourceVersion('10', '9'), compareResourceVersion('9', '10'), compareResourceVersion('7', '7')],
      [1, -1, 0],
    );
    assert.equal(compareResourceVersion('18446744073709551616', '18446744073709551615'), 1, 'past uint64');
    assert.equal(compareResourceVersion('123', '124'), -1);
  });

  it('given a version that is not well formed, then it does not compare (upstream: InvalidResourceVersion)', () => {
    for (const [a, b] of [
      ['abc', '9'],
      ['9', 'x1'],
      ['', '1'],
      ['1', ''],
      ['007', '7'],
      ['0', '1'],
      ['-1', '1'],
      ['1.5', '1'],
    ] as const) {
      assert.equal(compareResourceVersion(a, b), undefined, `${JSON.stringify(a)} vs ${JSON.stringify(b)}`);
    }
  });

  it('given record keys, then only the watermark key is one (no Kubernetes name contains ~)', () => {
    assert.equal(isWatermarkKey(WATERMARK_KEY), true);
    assert.equal(isWatermarkKey('ns/web'), false);
    assert.equal(isWatermarkKey('~other'), false);
  });
});
