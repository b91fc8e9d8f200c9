import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { GENERATED_FILES, generatedText } from '@kcm-bus/stack/generate/generated-files.ts';

const ROOT = resolve(import.meta.dirname, '../..');

/** firstDifference names the first line where a checked-in file and its generated text differ, both versions. */
function firstDifference(checkedIn: string, generated: string): string {
  const [have, want] = [checkedIn.split('\n'), generated.split('\n')];
  const line = have.findIndex((l, i) => l !== want[i]);
  const at = line < 0 ? have.length : line;
  const quoted = (l: string | undefined): string => JSON.stringify(l ?? '(end of file)');
  return `line ${at + 1} is ${quoted(have[at])}, generated ${quoted(want[at])}`;
}

describe('the generated files: what is checked in is what `npm run generate` writes', () => {
  for (const path of GENERATED_FILES) {
    it(`given ${path}, then it is what the catalog and the workspaces generate`, () => {
      const checkedIn = readFileSync(join(ROOT, path), 'utf8');
      const generated = generatedText(ROOT, path);
      assert.ok(
        checkedIn === generated,
        `${path} is stale: run \`npm run generate\` and commit the result (${firstDifference(checkedIn, generated)})`,
      );
    });
  }
});
