import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/** ROOT is the repository: the docs must stand alone in it. */
const ROOT = resolve(import.meta.dirname, '../..');

/** SERVICES are the folders of services/, one per service. */
const SERVICES = readdirSync(join(ROOT, 'services'), { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name)
  .sort();

/** SERVICE_READMES are the services' own READMEs (services/<name>/README.md), those that exist. */
const SERVICE_READMES = SERVICES.map((s) => `services/${s}/README.md`).filter((f) => existsSync(join(ROOT, f)));

/** DOCS are the pages a reader of the repository follows: the README, everything in docs/ and each service's README. */
const DOCS = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => `docs/${f}`),
  ...SERVICE_READMES,
];

/** Link is one markdown link or image of a page: its target as written and the line it is on. */
type Link = { readonly target: string; readonly line: number };

/** prose is a page with its fenced code blocks blanked and inline code removed, lines kept where they were. */
function prose(text: string): string[] {
  let fenced = false;
  return text.split('\n').map((line) => {
    if (/^\s*(```|~~~)/.test(line)) {
      fenced = !fenced;
      return '';
    }
    return fenced ? '' : line.replace(/`+[^`]*`+/g, '');
  });
}

/** linksOf lists the inline links and images of a page (`[text](target)`, `![alt](target "title")`). */
function linksOf(text: string): Link[] {
  return prose(text).flatMap((line, i) =>
    [...line.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => ({
      target: m[1] ?? '',
      line: i + 1,
    })),
  );
}

/**
 * slug is GitHub's anchor of a heading (github-slugger): inline markup dropped, lower case, every character but
 * letters, digits, marks, spaces, `-` and `_` removed, each space a `-`.
 */
function slug(heading: string): string {
  const text = heading
    .replace(/`([^`]*)`/g, '$1')
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[*_]{1,2}([^*_]+)[*_]{1,2}/g, '$1');
  return text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** anchorsOf are the anchors of a page's headings, repeated ones numbered as GitHub numbers them (`x`, `x-1`, …). */
function anchorsOf(text: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  let fenced = false;
  for (const line of text.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    const heading = fenced ? null : /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const base = slug(heading[1] ?? '');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  return anchors;
}

/** external: a link out of the repository (a URL with a scheme, mailto:), which this test does not follow. */
function external(target: string): boolean {
  return /^[a-z][a-z0-9+.-]*:/i.test(target);
}

/**
 * brokenLinks lists what is wrong with a page's relative links: a target that is not a file or folder of the
 * repository (or lies outside it), or an anchor that is no heading of the markdown page it points into.
 */
function brokenLinks(page: string, text = readFileSync(join(ROOT, page), 'utf8')): string[] {
  return linksOf(text)
    .filter((l) => !external(l.target))
    .flatMap(({ target, line }) => {
      const [path = '', anchor] = target.split('#', 2);
      const file = path === '' ? join(ROOT, page) : resolve(ROOT, dirname(page), decodeURIComponent(path));
      const where = `${page}:${line}: ${target}`;
      if (relative(ROOT, file).startsWith('..')) return [`${where} points outside the repository`];
      if (!existsSync(file)) return [`${where} names no file of the repository`];
      if (anchor === undefined || !file.endsWith('.md') || statSync(file).isDirectory()) return [];
      const headings = anchorsOf(path === '' ? text : readFileSync(file, 'utf8'));
      return headings.has(anchor) ? [] : [`${where}: no heading of ${relative(ROOT, file)} has the anchor #${anchor}`];
    });
}

/** CodeSpan is one inline code span of a page's prose (`x`), with the line it is on. */
type CodeSpan = { readonly text: string; readonly line: number };

/** codeSpansOf lists the inline code spans of a page, fenced code blocks left out. */
function codeSpansOf(text: string): CodeSpan[] {
  let fenced = false;
  return text.split('\n').flatMap((line, i) => {
    if (/^\s*(```|~~~)/.test(line)) {
      fenced = !fenced;
      return [];
    }
    return fenced ? [] : [...line.matchAll(/`([^`]+)`/g)].map((m) => ({ text: m[1] ?? '', line: i + 1 }));
  });
}

/** filesUnder lists the files below a folder (node_modules aside), as paths relative to it ('/'-separated). */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)).split('\\').join('/'))
    .filter((f) => !f.split('/').includes('node_modules'));
}

/**
 * unknownSourceFiles lists the TypeScript files a service's README names in code (`sync-replica-set.ts`,
 * `node-health/node-writes.ts`, `packages/catalog/src/controllers.ts`) that do not exist: a name resolves
 * as a path from the repository's root, or as the end of a path below the service's folder. A README that names the
 * files of an older layout fails here.
 */
function unknownSourceFiles(page: string, text = readFileSync(join(ROOT, page), 'utf8')): string[] {
  const service = dirname(page);
  const files = filesUnder(join(ROOT, service));
  const exists = (name: string): boolean =>
    existsSync(join(ROOT, name)) || files.some((f) => f === name || f.endsWith(`/${name}`));
  return codeSpansOf(text)
    .filter((c) => /^[\w./-]+\.ts$/.test(c.text) && !exists(c.text))
    .map((c) => `${page}:${c.line}: ${c.text} names no file of the repository or of ${service}`);
}

describe('the docs (README.md, docs/*.md and services/*/README.md) stand alone in the repository', () => {
  it("given GitHub's heading anchors, then slug and anchorsOf compute them", () => {
    assert.equal(slug('Chaos: `npm run chaos`'), 'chaos-npm-run-chaos');
    assert.equal(slug('On a cluster: `deploy/kustomize`'), 'on-a-cluster-deploykustomize');
    assert.equal(
      slug("Beside the cluster's own kube-controller-manager"),
      'beside-the-clusters-own-kube-controller-manager',
    );
    assert.deepEqual([...anchorsOf('# A\n```sh\n# not a heading\n```\n## A\n### B_c, d')], ['a', 'a-1', 'b_c-d']);
  });

  it('given links in prose and in code, then linksOf finds those in prose only', () => {
    const links = linksOf(
      'see [x](docs/nowhere.md#y) and `[not](a-link.md)`\n```\n[nor](this.md)\n```\n![i](a.svg "t")',
    );
    assert.deepEqual(links, [
      { target: 'docs/nowhere.md#y', line: 1 },
      { target: 'a.svg', line: 5 },
    ]);
  });

  it('given a missing file, an unknown anchor and a path out of the repository, then brokenLinks names each, and only those', () => {
    const page =
      '[a](docs/nowhere.md) [b](docs/design.md#no-such-heading) [c](../shared/DESIGN.md) [d](docs/design.md#glossary)\n' +
      '[e](#links) [f](https://example.com/x) [g](package.json)\n## Links';
    assert.deepEqual(brokenLinks('README.md', page), [
      'README.md:1: docs/nowhere.md names no file of the repository',
      'README.md:1: docs/design.md#no-such-heading: no heading of docs/design.md has the anchor #no-such-heading',
      'README.md:1: ../shared/DESIGN.md points outside the repository',
    ]);
  });

  it("given a service README, then brokenLinks resolves its links from the service's folder, and names what is broken", () => {
    const page =
      '[a](../../docs/design.md#the-writer) [b](docs/design.md) [c](../../docs/operations.md#no-such-heading)\n' +
      '[d](../../../shared/DESIGN.md) [e](src/main.ts) [f](src/gone.ts) [g](#code)\n## Code';
    assert.deepEqual(brokenLinks('services/writer/README.md', page), [
      'services/writer/README.md:1: docs/design.md names no file of the repository',
      'services/writer/README.md:1: ../../docs/operations.md#no-such-heading: no heading of docs/operations.md has the anchor #no-such-heading',
      'services/writer/README.md:2: ../../../shared/DESIGN.md points outside the repository',
      'services/writer/README.md:2: src/gone.ts names no file of the repository',
    ]);
  });

  it('given a service README that names files of an older layout, then unknownSourceFiles names those, and only those', () => {
    const page =
      '| `reconcile-rc.ts` | `sync-replica-set.ts` | `src/set-lookup.ts` |\n' +
      '`packages/catalog/src/controllers.ts`, `packages/runtime/src/catalog/allowlist.ts`, `*.test.ts`, `--help`\n' +
      '```\n`rc-lookup.ts` in a code block\n```';
    assert.deepEqual(unknownSourceFiles('services/reconciler-rc/README.md', page), [
      'services/reconciler-rc/README.md:1: reconcile-rc.ts names no file of the repository or of services/reconciler-rc',
      'services/reconciler-rc/README.md:2: packages/runtime/src/catalog/allowlist.ts names no file of the repository or of services/reconciler-rc',
    ]);
  });

  it('given services/, then every service has a README.md', () => {
    assert.deepEqual(
      SERVICES.filter((s) => !existsSync(join(ROOT, 'services', s, 'README.md'))),
      [],
    );
  });

  for (const page of SERVICE_READMES) {
    it(`given ${page}, then every TypeScript file it names exists`, () => {
      assert.deepEqual(unknownSourceFiles(page), []);
    });
  }

  for (const page of DOCS) {
    it(`given ${page}, then every relative link names a file of the repository, and every anchor a heading of its page`, () => {
      assert.deepEqual(brokenLinks(page), []);
    });

    it(`given ${page}, then nothing in it points at ../shared, which a clone of the repository does not have`, () => {
      const lines = readFileSync(join(ROOT, page), 'utf8').split('\n');
      const outside = lines.flatMap((line, i) =>
        line.includes('../shared') ? [`${page}:${i + 1}: ${line.trim()}`] : [],
      );
      assert.deepEqual(outside, []);
    });
  }

  it('given docs/, then README.md links every page of it, so a reader finds each from the front door', () => {
    const linked = new Set(linksOf(readFileSync(join(ROOT, 'README.md'), 'utf8')).map((l) => l.target.split('#')[0]));
    assert.deepEqual(
      DOCS.filter((d) => d.startsWith('docs/') && !linked.has(d)),
      [],
    );
  });
});
