import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, globSync, readFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { dirname, join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '../..');

type Manifest = {
  readonly name: string;
  readonly workspaces?: readonly string[];
  readonly exports?: Readonly<Record<string, string>>;
  readonly dependencies?: Readonly<Record<string, string>>;
  readonly devDependencies?: Readonly<Record<string, string>>;
};

const manifest = (dir: string): Manifest =>
  JSON.parse(readFileSync(join(ROOT, dir, 'package.json'), 'utf8')) as Manifest;

/** WORKSPACES are the workspace folders the root package.json names, each with its manifest. */
const WORKSPACES: ReadonlyMap<string, Manifest> = new Map(
  (manifest('.').workspaces ?? [])
    .flatMap((pattern) => globSync(`${pattern}/package.json`, { cwd: ROOT }))
    .sort()
    .map((file) => [dirname(file), manifest(dirname(file))]),
);

/**
 * IMPORT_SPECIFIERS match static imports and re-exports (also over several lines), bare imports and dynamic ones; a
 * statement must start its line, so examples in comments (` * import …`, `// import …`) do not count.
 */
const IMPORT_SPECIFIERS = [
  /^\s*(?:import|export)\b[^'"`;]*?\bfrom\s*['"]([^'"]+)['"]/gm,
  /^\s*import\s*['"]([^'"]+)['"]/gm,
  /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g,
];

/** packageOf is the package an import specifier names (`@scope/name` or `name`), or undefined for relative paths and builtins. */
function packageOf(specifier: string): string | undefined {
  if (specifier.startsWith('.') || specifier.startsWith('/') || isBuiltin(specifier)) return undefined;
  return specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');
}

/** importedPackages lists, per package, the source files of a workspace that import it. */
function importedPackages(dir: string): Map<string, Set<string>> {
  const found = new Map<string, Set<string>>();
  for (const file of globSync('**/*.ts', { cwd: join(ROOT, dir), exclude: (f) => f.includes('node_modules') })) {
    const text = readFileSync(join(ROOT, dir, file), 'utf8');
    for (const match of IMPORT_SPECIFIERS.flatMap((re) => [...text.matchAll(re)])) {
      const name = packageOf(match[1] ?? '');
      if (name !== undefined) found.set(name, (found.get(name) ?? new Set()).add(join(dir, file)));
    }
  }
  return found;
}

/** installed is what installing a package for production pulls from the workspaces' manifests: its dependencies, transitively. */
function installed(name: string, seen = new Set<string>()): Set<string> {
  const workspace = [...WORKSPACES.values()].find((m) => m.name === name);
  for (const dependency of Object.keys(workspace?.dependencies ?? {})) {
    if (!seen.has(dependency)) installed(dependency, seen.add(dependency));
  }
  return seen;
}

describe("the workspaces' package.json files", () => {
  it('given the root manifest, then it names the workspaces', () => {
    for (const dir of ['packages/runtime', 'schemas', 'services/watcher', 'test']) assert.ok(WORKSPACES.has(dir), dir);
  });

  for (const [dir, m] of WORKSPACES) {
    it(`${dir}: every package it imports is declared in its package.json (node: builtins aside)`, () => {
      const declared = new Set([m.name, ...Object.keys(m.dependencies ?? {}), ...Object.keys(m.devDependencies ?? {})]);
      const undeclared = [...importedPackages(dir)]
        .filter(([name]) => !declared.has(name))
        .map(([name, files]) => `${name} (${[...files].join(', ')})`);
      assert.deepEqual(undeclared, []);
    });

    it(`${dir}: every target of its exports exists`, () => {
      for (const [subpath, target] of Object.entries(m.exports ?? {})) {
        const path = join(ROOT, dir, target.includes('*') ? target.slice(0, target.indexOf('*')) : target);
        assert.ok(existsSync(path), `exports["${subpath}"] → ${target}: ${path} does not exist`);
      }
    });
  }

  it('given schemas, then it depends on no workspace package (it is the lowest layer)', () => {
    const m = WORKSPACES.get('schemas');
    const deps = [...Object.keys(m?.dependencies ?? {}), ...Object.keys(m?.devDependencies ?? {})];
    assert.deepEqual(
      deps.filter((d) => d.startsWith('@kcm-bus/')),
      [],
    );
  });

  it('given a reconciler, then installing it pulls no Kubernetes API client (only the watcher and the writer hold one)', () => {
    for (const [dir, m] of WORKSPACES) {
      if (dir.startsWith('services/reconciler-'))
        assert.ok(!installed(m.name).has('@kubernetes/client-node'), `${m.name} installs @kubernetes/client-node`);
    }
  });
});

describe('packageOf', () => {
  it('given specifiers, then it names the package of bare ones only', () => {
    assert.deepEqual(
      ['@kcm-bus/runtime/store/index.ts', 'avsc', 'yaml/util', './x.ts', 'node:fs', 'fs', '@types/node'].map(packageOf),
      ['@kcm-bus/runtime', 'avsc', 'yaml', undefined, undefined, undefined, '@types/node'],
    );
  });
});
