import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { globSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { controllerFlags } from '@kcm-bus/runtime/reconciler/index.ts';
import { REPLAY_FLAGS } from '@kcm-bus/runtime/replay/replay.node.ts';
import { COMMON_FLAGS, envName, type FlagSpec } from '@kcm-bus/runtime/service/index.ts';
import { COMMANDS } from '@kcm-bus/stack/cli.ts';
import { CONTROLLER_SERVICES } from '@kcm-bus/stack/replay-command.ts';
import type { Command } from '@kcm-bus/tools/command.ts';
import { DECLARATIONS as ENDPOINT } from '../../services/reconciler-endpoint/src/declarations.ts';
import { DECLARATIONS as NAMESPACE } from '../../services/reconciler-namespace/src/declarations.ts';
import { DECLARATIONS as NODE } from '../../services/reconciler-node/src/declarations.ts';
import { DECLARATIONS as RC } from '../../services/reconciler-rc/src/declarations.ts';
import { WATCHER_FLAGS } from '../../services/watcher/src/flags.ts';
import { WRITER_FLAGS } from '../../services/writer/src/writer-flags.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const CLI = resolve(ROOT, 'packages/stack/bin/kcm-bus.ts');

/** SERVICE_FLAGS are each service's flags besides COMMON_FLAGS, as its main declares them. */
const SERVICE_FLAGS: Readonly<Record<string, readonly FlagSpec[]>> = {
  watcher: WATCHER_FLAGS,
  writer: WRITER_FLAGS,
  'reconciler-rc': controllerFlags(RC),
  'reconciler-endpoint': controllerFlags(ENDPOINT),
  'reconciler-node': controllerFlags(NODE),
  'reconciler-namespace': controllerFlags(NAMESPACE),
};

/**
 * SANDBOX is every child's environment: an empty cache and run folder, nothing but node on PATH (no go, mvn or curl
 * to build with) and brokers nobody listens on, so a command that ignored --help fails here instead of reaching a stack.
 */
const SANDBOX: NodeJS.ProcessEnv = (() => {
  const dir = mkdtempSync(join(tmpdir(), 'kcm-bus-help-'));
  return {
    PATH: dirname(process.execPath),
    HOME: dir,
    KCM_BUS_CACHE: join(dir, 'cache'),
    KCM_BUS_RUN_DIR: join(dir, 'run'),
    KCM_BUS_KAFKA_BROKERS: '127.0.0.1:1',
  };
})();

type Run = { readonly code: number; readonly stdout: string; readonly stderr: string };

/** run runs a script of this checkout in the SANDBOX and returns its exit status and output. */
async function run(script: string, args: readonly string[]): Promise<Run> {
  try {
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      ['--disable-warning=TimeoutNegativeWarning', script, ...args],
      { env: SANDBOX, timeout: 30_000 },
    );
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code?: unknown; stdout?: string; stderr?: string };
    return {
      code: typeof e.code === 'number' ? e.code : -1,
      stdout: e.stdout ?? '',
      stderr: `${e.stderr ?? ''}${String(err)}`,
    };
  }
}

const kcmBus = (...args: string[]): Promise<Run> => run(CLI, args);

/** assertNamesFlags checks help text names every flag with its variable (where it reads one) and default. */
function assertNamesFlags(text: string, specs: readonly FlagSpec[]): void {
  for (const s of specs) {
    const variable = s.env === false ? '' : `${envName(s.name)}, `;
    const line = `--${s.name} (${variable}default ${JSON.stringify(s.default)})`;
    assert.ok(text.includes(line), `the help names ${line}`);
  }
}

/** exampleArgs are the fewest positional arguments a command takes, for a line that is wrong only where a test says. */
const exampleArgs = (c: Command): string[] => ['pods', 'demo/web'].slice(0, c.positionals[0]);

describe(
  "kcm-bus COMMAND --help: every command's usage, flags, variables and defaults, exit status 0",
  { concurrency: 8 },
  () => {
    it('the commands are every one the CLI dispatches', () => {
      assert.deepEqual(
        COMMANDS.map((c) => c.name),
        ['run', 'tail', 'history', 'trace', 'lag', 'replay', 'stack up', 'stack down', 'stack status', 'stack logs'],
      );
    });

    for (const c of COMMANDS) {
      it(`given kcm-bus ${c.name} --help, -h or kcm-bus help ${c.name}, then its usage, every flag and variable it reads, exit 0, nothing run`, async () => {
        const words = c.name.split(' ');
        const [help, h, helpCommand] = await Promise.all([
          kcmBus(...words, ...exampleArgs(c), '--help'),
          kcmBus(...words, ...exampleArgs(c), '-h'),
          kcmBus('help', ...words),
        ]);
        assert.equal(help.code, 0, help.stderr);
        assert.match(help.stdout, new RegExp(`^usage: kcm-bus ${c.name} `));
        assertNamesFlags(help.stdout, c.flags);
        for (const e of c.environment ?? []) assert.ok(help.stdout.includes(`${e.name} (default `), e.name);
        assert.deepEqual([h.code, h.stdout, helpCommand.code, helpCommand.stdout], [0, help.stdout, 0, help.stdout]);
      });
      if (c.passOn) continue;
      it(`given kcm-bus ${c.name} with an unknown flag, then exit 2 naming it, with its usage, and nothing run`, async () => {
        const got = await kcmBus(...c.name.split(' '), ...exampleArgs(c), '--no-such-flag');
        assert.equal(got.code, 2, got.stderr);
        assert.match(
          got.stderr,
          new RegExp(`^kcm-bus ${c.name}: Unknown option '--no-such-flag'[^]*\nusage: kcm-bus ${c.name} `),
        );
      });
    }

    it("given kcm-bus replay --controller NAME --help, then the service's replay help: its flags and the service's, exit 0", async () => {
      const [controller, service] = Object.entries(CONTROLLER_SERVICES)[0]!;
      const got = await kcmBus('replay', '--controller', controller, '--help');
      assert.equal(got.code, 0, got.stderr);
      assertNamesFlags(got.stdout, [...REPLAY_FLAGS, ...SERVICE_FLAGS[service]!]);
    });

    it('given kcm-bus replay with a flag its service does not take, then the service refuses it: exit 2 naming it', async () => {
      const got = await kcmBus(
        'replay',
        '--controller',
        Object.keys(CONTROLLER_SERVICES)[0]!,
        '--from',
        '1h',
        '--no-such-flag',
      );
      assert.equal(got.code, 2, got.stderr);
      assert.match(got.stderr, /--no-such-flag/);
    });
  },
);

describe('kcm-bus, kcm-bus help and wrong command lines', { concurrency: 8 }, () => {
  it('given kcm-bus help, --help or -h, then the usage naming every command on stdout, exit 0', async () => {
    for (const got of await Promise.all([kcmBus('help'), kcmBus('--help'), kcmBus('-h')])) {
      assert.equal(got.code, 0, got.stderr);
      for (const c of COMMANDS) assert.match(got.stdout, new RegExp(`\n  ${c.name} `), c.name);
    }
  });

  it('given kcm-bus help stack or kcm-bus stack --help, then the stack commands, exit 0', async () => {
    for (const got of await Promise.all([kcmBus('help', 'stack'), kcmBus('stack', '--help')])) {
      assert.equal(got.code, 0, got.stderr);
      assert.match(got.stdout, /stack up[^]*stack down[^]*stack status[^]*stack logs/);
    }
  });

  it('given no command, an unknown one, a flag before the command or help on an unknown one, then exit 2 with the usage on stderr', async () => {
    const runs = await Promise.all([
      kcmBus(),
      kcmBus('frobnicate'),
      kcmBus('--profile', 'test', 'stack', 'up'),
      kcmBus('help', 'frobnicate'),
      kcmBus('stack'),
      kcmBus('stack', 'frobnicate'),
    ]);
    for (const got of runs) {
      assert.equal(got.code, 2, got.stderr);
      assert.match(got.stderr, /\nusage: kcm-bus /);
      assert.equal(got.stdout, '');
    }
  });

  it('given a command without its arguments or with one too many, then exit 2 with its usage', async () => {
    for (const got of await Promise.all([
      kcmBus('trace', 'pods'),
      kcmBus('tail'),
      kcmBus('stack', 'status', 'extra'),
    ])) {
      assert.equal(got.code, 2, got.stderr);
      assert.match(got.stderr, /\nusage: kcm-bus (trace|tail|stack status)/);
    }
  });
});

describe('SERVICE --help: what an operator meets first', { concurrency: 8 }, () => {
  const services = globSync('services/*/src/main.ts', { cwd: ROOT })
    .map((f) => f.split('/')[1]!)
    .sort();

  it('the services are every one in services/', () => {
    assert.deepEqual(services, Object.keys(SERVICE_FLAGS).sort());
  });

  for (const service of services) {
    it(`given ${service} --help, then it prints every flag with its variable and default and exits 0, touching nothing`, async () => {
      const got = await run(resolve(ROOT, `services/${service}/src/main.ts`), ['--help']);
      assert.equal(got.code, 0, got.stderr);
      assertNamesFlags(got.stdout, [...COMMON_FLAGS, ...(SERVICE_FLAGS[service] ?? [])]);
    });
  }
});
