import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { GENERATED_FILES, generatedText } from './generated-files.ts';

/**
 * `npm run generate` writes the files derived from the controller catalog and the workspaces (GENERATED_FILES) and
 * names each one it changed. Commit them: test/unit/generated.test.ts fails while one differs from what it writes.
 */
const root = resolve(import.meta.dirname, '../../../..');
for (const path of GENERATED_FILES) {
  const text = generatedText(root, path);
  if (text !== readFileSync(join(root, path), 'utf8')) {
    writeFileSync(join(root, path), text);
    console.log(`wrote ${path}`);
  }
}
