import { writeFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fetchOpenApi } from './openapi.kube.ts';
import { watchSchemaFiles } from './watch-schemas.ts';

/**
 * `npm run schemas -- [KUBECONFIG]` regenerates schemas/watch/*.avsc from a running apiserver (by
 * default the dev stack's). Commit the result: the test command fails when the committed files differ
 * from what the pinned apiserver gives.
 */
const kubeconfig =
  process.argv[2] ??
  join(process.env['KCM_BUS_CACHE'] ?? join(process.env['HOME'] ?? '', '.cache/kcm-bus'), 'run/dev/kubeconfig');
for (const [file, text] of watchSchemaFiles(await fetchOpenApi(kubeconfig))) {
  const path = join(import.meta.dirname, file);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  console.log(`wrote ${path}`);
}
