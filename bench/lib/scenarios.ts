import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Scenario } from './scenario.ts';

/** SCENARIOS is the folder of the scenarios: one folder each, its scenario.ts exporting `scenario`. */
export const SCENARIOS = resolve(import.meta.dirname, '../scenarios');

const sNumber = (id: string): number => Number(/^s(\d+)/i.exec(id)?.[1] ?? Infinity);

/**
 * compareIds orders scenario ids (in either case) as docs/benchmarks.md does: s1, s4, s4s, s5, ..., s13, then the ids
 * with no S-number (chaos).
 */
export function compareIds(a: string, b: string): number {
  return sNumber(a) - sNumber(b) || a.toLowerCase().localeCompare(b.toLowerCase());
}

const byId = (a: Scenario, b: Scenario): number => compareIds(a.id, b.id);

/** load imports bench/scenarios/<name>/scenario.ts; its scenario must be named as its folder. */
async function load(name: string): Promise<Scenario> {
  const { scenario } = (await import(join(SCENARIOS, name, 'scenario.ts'))) as { scenario: Scenario };
  if (scenario.name !== name)
    throw new Error(`bench/scenarios/${name}/scenario.ts names its scenario ${scenario.name}`);
  return scenario;
}

/** allScenarios loads every bench/scenarios/<name>/scenario.ts, in the order of their ids. */
export async function allScenarios(): Promise<Scenario[]> {
  const names = readdirSync(SCENARIOS, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name);
  return (await Promise.all(names.map(load))).sort(byId);
}

/** chooseScenarios picks by id (`--only s1,s4s`), or every scenario not run only when asked for; an unknown id fails. */
export function chooseScenarios(all: readonly Scenario[], only: readonly string[]): Scenario[] {
  const unknown = only.filter((id) => !all.some((s) => s.id === id));
  if (unknown.length > 0)
    throw new Error(`unknown scenario ${unknown.join(', ')}; known: ${all.map((s) => s.id).join(', ')}`);
  return only.length === 0 ? all.filter((s) => !s.onlyWhenAsked) : all.filter((s) => only.includes(s.id));
}
