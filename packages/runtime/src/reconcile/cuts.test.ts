import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CUT_LIMIT_MS, Cuts } from './cuts.ts';

const t = (ms: number): Date => new Date(1_000_000 + ms);

describe('Cuts: a sync that must see what other topics held before its cause', () => {
  it('given a key cut at the time its cause was seen, then it waits until every input is complete up to then', () => {
    const cuts = new Cuts();
    cuts.at('ns/rc', t(500), 0);
    assert.equal(cuts.reached('ns/rc', undefined, 10), false, 'no watermark yet');
    assert.equal(cuts.reached('ns/rc', t(499), 10), false);
    assert.equal(cuts.reached('ns/rc', t(500), 10), true);
    assert.equal(cuts.reached('ns/rc', undefined, 20), true, 'a reached cut is cleared');
  });

  it('given two causes, then the later one counts; a key without a cut syncs at once', () => {
    const cuts = new Cuts();
    cuts.at('ns/rc', t(500), 0);
    cuts.at('ns/rc', t(300), 1);
    assert.equal(cuts.reached('ns/rc', t(400), 10), false);
    assert.equal(cuts.reached('ns/other', undefined, 10), true);
  });

  it('given watermarks that stop, then the key syncs after CUT_LIMIT_MS as without the cut', () => {
    const cuts = new Cuts();
    cuts.at('ns/rc', t(500), 0);
    assert.equal(cuts.reached('ns/rc', t(0), CUT_LIMIT_MS - 1), false);
    assert.equal(cuts.reached('ns/rc', t(0), CUT_LIMIT_MS), true);
  });
});
