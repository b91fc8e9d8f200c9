import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fetchOpenApi } from '@kcm-bus/schemas/openapi.kube.ts';
import { watchSchemaFiles } from '@kcm-bus/schemas/watch-schemas.ts';
import { testStack } from '../support/stack.ts';

const SCHEMAS = resolve(import.meta.dirname, '../../schemas');

describe('the committed watch schemas', () => {
  it("are exactly what the generator makes from the pinned apiserver's OpenAPI v3 (run `npm run schemas` to refresh)", async () => {
    const generated = watchSchemaFiles(await fetchOpenApi(testStack().kubeconfig));
    for (const [file, text] of generated) {
      assert.ok(
        readFileSync(join(SCHEMAS, file), 'utf8') === text,
        `${file} differs from the generator's output: run npm run schemas`,
      );
    }
  });
});
