import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '../..');
const CONFIG = join(ROOT, '.dependency-cruiser.cjs');

/** Violation is a file that breaks one rule once (the file it names is the one reported). */
type Violation = { readonly rule: string; readonly file: string; readonly text: string };

/** VIOLATIONS break every rule, each at least once; the real tree is checked by the test command itself. */
const VIOLATIONS: readonly Violation[] = [
  {
    rule: 'services-are-independent',
    file: 'services/writer/src/leak.ts',
    text: "import '../../watcher/src/target.ts';\n",
  },
  {
    rule: 'pure-modules-do-no-io',
    file: 'packages/runtime/src/store.ts',
    text: "import { readFileSync } from 'node:fs';\nexport const y = readFileSync;\n",
  },
  {
    rule: 'pure-modules-do-no-io',
    file: 'packages/k8s/src/pod.ts',
    text: "import { request } from 'node:http';\nexport const y = request;\n",
  },
  {
    rule: 'pure-modules-do-no-io',
    file: 'schemas/kinds.ts',
    text: "import avro from 'avsc';\nexport const y = avro;\n",
  },
  {
    rule: 'only-watcher-and-writer-use-the-api',
    file: 'services/reconciler-node/src/api.kube.ts',
    text: "import { KubeConfig } from '@kubernetes/client-node';\nexport const k = KubeConfig;\n",
  },
  {
    rule: 'only-watcher-and-writer-use-the-api',
    file: 'schemas/openapi.fs.ts',
    text: "import { KubeConfig } from '@kubernetes/client-node';\nexport const k = KubeConfig;\n",
  },
  {
    rule: 'only-the-bus-adapter-uses-kafkajs',
    file: 'services/watcher/src/topic.kafka.ts',
    text: "import { Kafka } from 'kafkajs';\nexport const z = Kafka;\n",
  },
  {
    rule: 'only-the-bus-adapter-uses-kafkajs',
    file: 'packages/runtime/src/controller/controller.kafka.ts',
    text: "import { Kafka } from 'kafkajs';\nexport const z = Kafka;\n",
  },
  {
    rule: 'packages-in-order',
    file: 'schemas/watch-schemas.ts',
    text: "import '../packages/runtime/src/target.ts';\n",
  },
  {
    rule: 'packages-in-order',
    file: 'packages/runtime/src/controller/controller.ts',
    text: "import '../../../k8s/src/target.ts';\n",
  },
  {
    rule: 'packages-in-order',
    file: 'services/reconciler-rc/src/main.ts',
    text: "import '../../../packages/stack/src/target.ts';\n",
  },
  {
    rule: 'packages-in-order',
    file: 'packages/harness/src/processes.ts',
    text: "import '../../../services/watcher/src/target.ts';\n",
  },
  {
    rule: 'bench-drives-from-outside',
    file: 'bench/scenarios/leak/scenario.ts',
    text: "import '../../../services/watcher/src/target.ts';\n",
  },
  { rule: 'bench-drives-from-outside', file: 'bench/lib/helper.ts', text: "import '../../test/support/target.ts';\n" },
  {
    rule: 'nothing-imports-bench',
    file: 'test/integration/leak.test.ts',
    text: "import '../../bench/lib/target.ts';\n",
  },
  {
    rule: 'nothing-imports-bench',
    file: 'packages/harness/src/leak.ts',
    text: "import '../../../bench/lib/target.ts';\n",
  },
  {
    rule: 'runtime-through-its-entries',
    file: 'services/writer/src/reach.ts',
    text: "import '../../../packages/runtime/src/bus/deep.ts';\n",
  },
  {
    rule: 'controller-side-knows-no-consumer',
    file: 'packages/runtime/src/controller/feed.ts',
    text: "import '../consumer/target.ts';\n",
  },
  {
    rule: 'consumer-feeds-controllers-through-their-port',
    file: 'packages/runtime/src/consumer/feeding.ts',
    text: "import '../controller/inside.ts';\n",
  },
  {
    rule: 'the-generator-is-a-dev-tool',
    file: 'packages/runtime/src/codec/codec.ts',
    text: "import '../../../../schemas/generator/target.ts';\n",
  },
  {
    rule: 'the-generator-is-a-dev-tool',
    file: 'services/watcher/src/open-kind.ts',
    text: "import '../../../schemas/watch-schemas.fs.ts';\n",
  },
  {
    rule: 'the-generator-is-a-dev-tool',
    file: 'schemas/avro/watch-event-schema.ts',
    text: "import '../generator/target.ts';\n",
  },
  {
    rule: 'no-circular',
    file: 'packages/tools/src/a.ts',
    text: "import { b } from './b.ts';\nexport const a = (): number => b();\n",
  },
];

/** TARGETS are the harmless files the violations import. */
const TARGETS: Readonly<Record<string, string>> = {
  'services/watcher/src/target.ts': 'export const x = 1;\n',
  'packages/runtime/src/target.ts': 'export const x = 1;\n',
  'packages/k8s/src/target.ts': 'export const x = 1;\n',
  'packages/stack/src/target.ts': 'export const x = 1;\n',
  'test/support/target.ts': 'export const x = 1;\n',
  'bench/lib/target.ts': 'export const x = 1;\n',
  'packages/runtime/src/bus/deep.ts': 'export const x = 1;\n',
  'packages/runtime/src/consumer/target.ts': 'export const x = 1;\n',
  'packages/runtime/src/controller/inside.ts': 'export const x = 1;\n',
  'packages/tools/src/b.ts': "import { a } from './a.ts';\nexport const b = (): number => a();\n",
  'schemas/generator/target.ts': 'export const x = 1;\n',
  'schemas/watch-schemas.fs.ts': "import './generator/target.ts';\n",
};

/** RULES are the names of the configured rules. */
const RULES = new Set(
  (createRequire(import.meta.url)(CONFIG) as { forbidden: readonly { name: string }[] }).forbidden.map((r) => r.name),
);

describe('the layering rule (dependency-cruiser)', () => {
  let output = '';

  before(() => {
    const dir = mkdtempSync(join(tmpdir(), 'kcm-bus-layers-'));
    symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
    copyFileSync(join(ROOT, 'tsconfig.json'), join(dir, 'tsconfig.json'));
    for (const [file, text] of [...VIOLATIONS.map((v) => [v.file, v.text] as const), ...Object.entries(TARGETS)]) {
      mkdirSync(dirname(join(dir, file)), { recursive: true });
      writeFileSync(join(dir, file), text);
    }
    const run = spawnSync(
      join(ROOT, 'node_modules/.bin/depcruise'),
      ['--config', CONFIG, 'packages', 'services', 'schemas', 'test', 'bench'],
      {
        cwd: dir,
        encoding: 'utf8',
        env: { ...process.env, PATH: `${dirname(process.execPath)}:${process.env['PATH'] ?? ''}` },
      },
    );
    assert.notEqual(run.status, 0, 'dependency-cruiser fails on the violating tree');
    output = run.stdout + run.stderr;
  });

  it('given the configured rules, then each has a violation here', () => {
    assert.deepEqual(
      [...RULES].filter((rule) => !VIOLATIONS.some((v) => v.rule === rule)),
      [],
    );
  });

  for (const { rule, file } of VIOLATIONS) {
    it(`reports ${rule} for ${file}`, () =>
      assert.match(output, new RegExp(`error ${rule}: ${file.replaceAll('.', '\\.')}`), output));
  }

  it('given the harmless targets, then none is reported', () => {
    for (const file of Object.keys(TARGETS).filter((f) => !f.endsWith('b.ts')))
      assert.doesNotMatch(output, new RegExp(`error \\S+: ${file.replaceAll('.', '\\.')}`));
  });
});
