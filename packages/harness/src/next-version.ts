import { cpSync, mkdirSync, mkdtempSync, readdirSync, readlinkSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const REPO = resolve(import.meta.dirname, '../../..');

/** SOURCES are what a service needs of the checkout to run: its code, the shared packages, the schemas. */
const SOURCES = ['package.json', 'tsconfig.json', 'packages', 'services', 'schemas'];

/** NextVersion is a copy of this checkout with a change made to it: a next version of kcm-bus to upgrade onto. */
export type NextVersion = {
  readonly root: string;
  /** script is a service's entry point in the copy (startService's `script`). */
  readonly script: (service: string) => string;
  readonly remove: () => void;
};

/**
 * nextVersion copies the checkout's sources (not node_modules) to a temporary folder, lets `change` edit the copy,
 * and gives the copy a node_modules of its own: the workspace's packages linked to the copy's (so the copy's
 * services read the copy's schemas), every other dependency linked to this checkout's installed one.
 */
export function nextVersion(change: (root: string) => void): NextVersion {
  const root = mkdtempSync(join(tmpdir(), 'kcm-bus-next-'));
  for (const source of SOURCES)
    cpSync(join(REPO, source), join(root, source), {
      recursive: true,
      filter: (from) => !from.includes('node_modules'),
    });
  linkDependencies(root);
  change(root);
  return {
    root,
    script: (service) => join(root, 'services', service, 'src', 'main.ts'),
    remove: () => rmSync(root, { recursive: true, force: true }),
  };
}

/** linkDependencies makes root/node_modules: @kcm-bus/* as the workspace links them (relative, so into root), the rest absolute. */
function linkDependencies(root: string): void {
  const modules = join(root, 'node_modules');
  mkdirSync(join(modules, '@kcm-bus'), { recursive: true });
  for (const entry of readdirSync(join(REPO, 'node_modules'))) {
    if (entry === '@kcm-bus' || entry.startsWith('.')) continue;
    symlinkSync(join(REPO, 'node_modules', entry), join(modules, entry));
  }
  for (const pkg of readdirSync(join(REPO, 'node_modules', '@kcm-bus')))
    symlinkSync(readlinkSync(join(REPO, 'node_modules', '@kcm-bus', pkg)), join(modules, '@kcm-bus', pkg));
}
