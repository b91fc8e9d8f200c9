import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type WatchedKind, watchSchemaFile } from './kinds.ts';

/** loadWatchSchema reads the committed value schema of a kind's watch topic. */
export function loadWatchSchema(kind: WatchedKind): object {
  return JSON.parse(readFileSync(join(import.meta.dirname, watchSchemaFile(kind)), 'utf8')) as object;
}
