import { parseArgs } from 'node:util';
import { say } from '@kcm-bus/stack/cli.ts';
import { ALL_SPECS, E2E_SPECS, runE2e, specsFocus } from './e2e.ts';

/**
 * `npm run e2e -- [--arm kcm-bus|upstream] [--all | --focus RE]`: upstream's own e2e specs for the controllers
 * kcm-bus replaces, on a stack of their own (see runE2e): by default the specs that pass on kwok under upstream
 * (E2E_SPECS, the parity gate: its own command, outside `npm test`, whose warm run it would take past 25 minutes),
 * with --all every spec of these controllers. Prints each spec's outcome and time and the total; exits 0 when none
 * failed.
 */
async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      arm: { type: 'string', default: 'kcm-bus' },
      all: { type: 'boolean', default: false },
      focus: { type: 'string' },
    },
  });
  if (values.arm !== 'kcm-bus' && values.arm !== 'upstream')
    throw new Error(`--arm must be kcm-bus or upstream, not ${values.arm}`);
  const focus = values.focus ?? (values.all ? ALL_SPECS : specsFocus(E2E_SPECS));
  const started = Date.now();
  const results = await runE2e(values.arm, focus, say());
  for (const r of results) console.log(`${r.state.padEnd(8)} ${r.seconds.toFixed(1).padStart(6)} s  ${r.spec}`);
  const passed = results.filter((r) => r.state === 'passed').length;
  console.log(
    `e2e under ${values.arm}: ${passed} of ${results.length} specs passed, ${results.reduce((s, r) => s + r.seconds, 0).toFixed(0)} s in specs, ${((Date.now() - started) / 1000).toFixed(0)} s in all`,
  );
  return passed === results.length ? 0 : 1;
}

process.exitCode = await main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : String(err));
  return 2;
});
