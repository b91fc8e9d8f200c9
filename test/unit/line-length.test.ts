import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { longLines, MAX_LINE } from './line-length.ts';

const ROOT = join(import.meta.dirname, '../..');

describe('the line-length rule: code within 120 columns, only literals and comments may run past', () => {
  const code = (n: number): string => `const x = [${Array.from({ length: n }, (_, i) => i % 10).join(', ')}];`;

  it('given a line whose code runs past the limit, then it is reported by number', () => {
    assert.deepEqual(longLines('a.ts', `const a = 1;\n${code(60)}\n`), [2]);
  });

  it('given lines past the limit only by a string, a template, a regexp or a comment, then none is reported', () => {
    const long = 'x'.repeat(MAX_LINE);
    const text = [
      `const s = '${long}';`,
      `const t = \`${long}\${s}${long}\`;`,
      `const r = /${long}/;`,
      `// ${long}`,
      `/** ${long} */`,
      `f(); // ${long}`,
    ].join('\n');
    assert.deepEqual(longLines('b.ts', text), []);
  });

  it('given every TypeScript file of the repository, then none has code past the limit', () => {
    const files = execFileSync('git', ['ls-files', '*.ts'], { cwd: ROOT, encoding: 'utf8' }).trim().split('\n');
    const found = files.flatMap((f) => longLines(f, readFileSync(join(ROOT, f), 'utf8')).map((line) => `${f}:${line}`));
    assert.deepEqual(found, [], `lines with code past ${MAX_LINE} columns (npm run format wraps code)`);
  });
});
