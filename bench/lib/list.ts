import type { Knob, Scenario } from './scenario.ts';

const INDENT = '       ';
const WIDTH = 118;

/** wrapped breaks a text into lines of at most WIDTH characters at spaces: the first after `first`, the others after `rest`. */
function wrapped(text: string, first: string, rest: string): string[] {
  const lines: string[] = [];
  for (const word of text.split(' ')) {
    const last = lines.at(-1);
    if (last !== undefined && last.length + 1 + word.length <= WIDTH) lines[lines.length - 1] = `${last} ${word}`;
    else lines.push(`${lines.length === 0 ? first : rest}${word}`);
  }
  return lines;
}

/** knobLines are each knob's variable and default (or "(unset)"), then what it sets. */
function knobLines(knobs: readonly Knob[]): string[] {
  const label = (k: Knob): string => (k.default === undefined ? `${k.env} (unset)` : `${k.env}=${k.default}`);
  const width = Math.max(0, ...knobs.map((k) => label(k).length)) + 2;
  return knobs.flatMap((k) =>
    wrapped(k.meaning, `${INDENT}${label(k).padEnd(width)}`, ' '.repeat(INDENT.length + width)),
  );
}

/**
 * formatList is what `npm run bench -- --list` prints: each scenario's id (what --only takes), its name (its folder
 * under bench/scenarios), what it measures and the variables it reads with their defaults; then those of every run.
 */
export function formatList(scenarios: readonly Scenario[], run: readonly Knob[]): string {
  const blocks = scenarios.map((s) =>
    [
      `${s.id.padEnd(INDENT.length - 1)} ${s.name}${s.onlyWhenAsked ? ' (only when asked for: --only ' + s.id + ')' : ''}`,
      ...wrapped(s.measures, INDENT, INDENT),
      ...(s.knobs.length === 0 ? [`${INDENT}(no knobs)`] : knobLines(s.knobs)),
    ].join('\n'),
  );
  return [...blocks, ['every run:', ...knobLines(run)].join('\n')].join('\n\n');
}
