import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { MutationResult } from '../mutation/mutation-result.ts';
import { KeyStates } from './key-states.ts';

const cause = (offset: number) => ({ topic: 'kcm.state.pods', partition: 0, offset });
const failure = { mutationId: 'm' } as MutationResult;

describe("KeyStates: a controller's state of each key between syncs", () => {
  it('given a cause, then syncs count attempts from 0 until the cause changes, and each sync takes the failures once', () => {
    const keys = new KeyStates();
    keys.caused('ns/a', cause(1));
    keys.failed('ns/a', failure);
    const start = { report: undefined, cause: [cause(1)], fresh: false };
    assert.deepEqual(keys.startSync('ns/a'), { ...start, failures: [failure], attempt: 0 });
    assert.deepEqual(keys.startSync('ns/a'), { ...start, failures: [], attempt: 1 });
    keys.caused('ns/a', cause(2));
    assert.equal(keys.startSync('ns/a').attempt, 0);
  });

  it('given reports, then the next sync takes the latest, once', () => {
    const keys = new KeyStates();
    const [first, newer] = [{ mutationId: 'r1' }, { mutationId: 'r2' }] as MutationResult[];
    keys.reported('ns/a', first!);
    keys.reported('ns/a', newer!);
    assert.equal(keys.startSync('ns/a').report, newer);
    assert.equal(keys.startSync('ns/a').report, undefined);
  });

  it('given a fresh read reached, then only the next sync reads fresh', () => {
    const keys = new KeyStates();
    keys.freshRead('ns/a');
    assert.equal(keys.startSync('ns/a').fresh, true);
    assert.equal(keys.startSync('ns/a').fresh, false);
  });

  it('given ticks waiting for a key, then taking it up or dropping it (its partition moved) lets them go, and nothing else', () => {
    const keys = new KeyStates();
    const letGo: string[] = [];
    keys.waitTick('~a', () => letGo.push('a'));
    keys.waitTick('~b', () => letGo.push('b'));
    keys.failed('ns/c', failure);
    assert.deepEqual(keys.tickKeys(), ['~a', '~b']);
    keys.tookUp('~a');
    keys.dropWhere((k) => k !== 'ns/c');
    assert.deepEqual(letGo, ['a', 'b']);
    assert.deepEqual(keys.startSync('ns/c').failures, [failure], 'a key that stays keeps its state');
  });
});
