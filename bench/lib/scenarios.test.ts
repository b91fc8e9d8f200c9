import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { globSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { formatList } from './list.ts';
import { RUN } from './knobs.ts';
import { allScenarios, chooseScenarios, SCENARIOS } from './scenarios.ts';

const all = await allScenarios();

/** declaredKnobs are the variables a scenario folder's files declare with knob('NAME', ...). */
function declaredKnobs(name: string): string[] {
  const text = globSync('*.ts', { cwd: join(SCENARIOS, name) })
    .map((f) => readFileSync(join(SCENARIOS, name, f), 'utf8'))
    .join('\n');
  return [...text.matchAll(/\bknob\('([A-Z0-9_]+)'/g)].map((m) => m[1] ?? '');
}

describe('the scenarios (bench/scenarios/<name>/scenario.ts)', () => {
  it('given their folders, then there is one scenario a folder, and the ids are the S-numbers in order, chaos and soak last', () => {
    assert.deepEqual(
      all.map((s) => s.name).sort(),
      globSync('*/scenario.ts', { cwd: SCENARIOS })
        .map((f) => f.split('/')[0])
        .sort(),
    );
    assert.deepEqual(
      all.map((s) => s.id),
      [
        's1',
        's4',
        's4s',
        's5',
        's6',
        's7',
        's8',
        's9',
        's10',
        's12',
        's13',
        's14',
        's15',
        's16',
        's17',
        'chaos',
        'soak',
      ],
    );
  });

  it('given --only s1,s4s, then those two run; given no --only, then all but chaos and soak; given an unknown id, then it fails', () => {
    assert.deepEqual(
      chooseScenarios(all, ['s1', 's4s']).map((s) => s.name),
      ['scale-rc-rs', 'endpoint-slices'],
    );
    assert.deepEqual(
      chooseScenarios(all, []).map((s) => s.id),
      all.map((s) => s.id).filter((id) => id !== 'chaos' && id !== 'soak'),
    );
    assert.throws(() => chooseScenarios(all, ['s2']), /unknown scenario s2; known: s1, s4/);
  });

  for (const s of all) {
    it(`${s.id} (${s.name}): every knob its folder declares is on its scenario, so --list shows it`, () => {
      const listed = new Set(s.knobs.map((k) => k.env));
      assert.deepEqual(
        declaredKnobs(s.name).filter((env) => !listed.has(env)),
        [],
      );
      assert.ok(s.measures.length > 0);
    });
  }

  it("given the scenarios, then --list prints each id, name and knob, and the run's knobs with their defaults", () => {
    const list = formatList(all, Object.values(RUN));
    for (const s of all) assert.match(list, new RegExp(`^${s.id} +${s.name}`, 'm'));
    for (const k of all.flatMap((s) => s.knobs))
      assert.ok(list.includes(k.default === undefined ? `${k.env} (unset)` : `${k.env}=${k.default}`), k.env);
    assert.match(list, /KCM_BUS_PORT_BASE=17600 +the bench stack's first port/);
  });
});
