import { spawn } from 'node:child_process';
import { parseArgs } from 'node:util';
import { CONTROLLERS } from '@kcm-bus/runtime/catalog/controllers.ts';
import { serviceScript } from './services.ts';

/** CONTROLLER_SERVICES say which kcm-bus service runs each upstream controller it replaces (the catalog's). */
export const CONTROLLER_SERVICES: Readonly<Record<string, string>> = Object.fromEntries(CONTROLLERS.map((c) => [c.name, c.service]));

/**
 * replayCommand is `kcm-bus replay --controller NAME --from T [--to T] [--json]`: the controller's service's own
 * `replay` subcommand from this checkout, with every argument passed on (the connection flags included), and its
 * exit status (0 the same, 1 some key differs, 2 trouble).
 */
export async function replayCommand(argv: readonly string[]): Promise<number> {
  const { values } = parseArgs({ args: [...argv], strict: false, options: { controller: { type: 'string' } } });
  const service = typeof values.controller === 'string' ? CONTROLLER_SERVICES[values.controller] : undefined;
  if (service === undefined) {
    console.error(`kcm-bus replay: --controller must be one of ${Object.keys(CONTROLLER_SERVICES).join(', ')}`);
    return 2;
  }
  const child = spawn(process.execPath, ['--disable-warning=TimeoutNegativeWarning', serviceScript(service), 'replay', ...argv], { stdio: 'inherit' });
  return new Promise((resolve) => child.once('close', (code) => resolve(code ?? 2)));
}
