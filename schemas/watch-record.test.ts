import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compareResourceVersion, isWatermarkKey, misplacedRecord, WATERMARK_KEY } from './watch-record.ts';

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

  it('given records under keys, then only a watermark goes under the watermark key, and an Applied object is the one its key names (misplacedRecord)', () => {
    const object = (namespace: string | null, name: string) => ({ metadata: { namespace, name } });
    assert.equal(misplacedRecord('ns/web', { type: 'Applied', object: object('ns', 'web') }), undefined);
    assert.equal(misplacedRecord('node-1', { type: 'Applied', object: object(null, 'node-1') }), undefined);
    assert.equal(
      misplacedRecord('ns/gone', { type: 'Deleted', object: null }),
      undefined,
      'a delete may carry no object',
    );
    assert.equal(misplacedRecord(WATERMARK_KEY, { type: 'Watermark', object: null }), undefined);
    assert.equal(
      misplacedRecord('ns/f1', { type: 'Applied', object: object('ns', 'p') }),
      'record key "ns/f1" does not name its object ("ns/p")',
    );
    assert.equal(
      misplacedRecord('ns/web', { type: 'Watermark', object: null }),
      'a Watermark record under key "ns/web"',
    );
    assert.equal(
      misplacedRecord(WATERMARK_KEY, { type: 'Applied', object: object('ns', 'web') }),
      'an Applied record under key "~watermark"',
    );
  });
});
