import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CUT_LIMIT_MS, Cuts } from './cuts.ts';

const t = (ms: number): Date => new Date(1_000_000 + ms);

describe('Cuts: a sync that must see what other topics held before its cause', () => {
  it('given a key cut at the time its cause was seen, then it waits until every input is complete up to then', () => {
    const cuts = new Cuts();
    cuts.at('ns/rc', t(500), 0);
    assert.equal(cuts.state('ns/rc', undefined, 10), 'wait', 'no watermark yet');
    assert.equal(cuts.state('ns/rc', t(499), 10), 'wait');
    assert.equal(cuts.state('ns/rc', t(500), 10), 'go');
    assert.equal(cuts.state('ns/rc', undefined, 20), 'go', 'a reached cut is cleared');
  });

  it('given two causes, then the later one counts; a key without a cut syncs at once', () => {
    const cuts = new Cuts();
    cuts.at('ns/rc', t(500), 0);
    cuts.at('ns/rc', t(300), 1);
    assert.equal(cuts.state('ns/rc', t(400), 10), 'wait');
    assert.equal(cuts.state('ns/other', undefined, 10), 'go');
  });

  it('given watermarks that stop, then the key syncs after CUT_LIMIT_MS as without the cut', () => {
    const cuts = new Cuts();
    cuts.at('ns/rc', t(500), 0);
    assert.equal(cuts.state('ns/rc', t(0), CUT_LIMIT_MS - 1), 'wait');
    assert.equal(cuts.state('ns/rc', t(0), CUT_LIMIT_MS), 'go');
  });
});

describe("Cuts: a fresh read (upstream's uncached GET)", () => {
  it('given a sync that asked for a fresh read, then the key waits for inputs complete up to that moment and its next sync is fresh', () => {
    const cuts = new Cuts();
    cuts.fresh('ns/rc', t(700).getTime());
    assert.equal(cuts.state('ns/rc', t(699), t(800).getTime()), 'wait');
    assert.equal(cuts.state('ns/rc', t(700), t(900).getTime()), 'fresh');
    assert.equal(cuts.state('ns/rc', t(700), t(950).getTime()), 'go', 'fresh once');
  });

  it('given watermarks that stop, then after CUT_LIMIT_MS the key syncs, not fresh', () => {
    const cuts = new Cuts();
    cuts.fresh('ns/rc', t(0).getTime());
    assert.equal(cuts.state('ns/rc', t(-1), t(CUT_LIMIT_MS).getTime()), 'go');
  });

  it("given a lost partition, then its keys' cuts are dropped", () => {
    const cuts = new Cuts();
    cuts.fresh('ns/rc', t(0).getTime());
    cuts.dropWhere((key) => key.startsWith('ns/'));
    assert.equal(cuts.state('ns/rc', undefined, t(1).getTime()), 'go');
  });
});
