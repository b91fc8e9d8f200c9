import { spawn } from 'node:child_process';
import { CONTROLLERS } from '@kcm-bus/catalog/controllers.ts';
import { REPLAY_FLAGS } from '@kcm-bus/runtime/replay/replay.node.ts';
import { FlagError, serviceLaunch, wantsHelp, type CommandLine } from '@kcm-bus/runtime/service/index.ts';
import { commandHelp, type Command } from '@kcm-bus/tools/command.ts';
import { CONNECTION_FLAGS } from '@kcm-bus/tools/connection-options.ts';
import { serviceScript } from './services.ts';

/** CONTROLLER_SERVICES say which kcm-bus service runs each upstream controller it replaces (the catalog's). */
export const CONTROLLER_SERVICES: Readonly<Record<string, string>> = Object.fromEntries(
  CONTROLLERS.map((c) => [c.name, c.service]),
);

/**
 * REPLAY_COMMAND is `kcm-bus replay --controller NAME --from T [--to T] [--json]`: the controller's service's own
 * `replay` subcommand from this checkout, with every argument passed on, so that it takes the service's flags too.
 */
export const REPLAY_COMMAND: Command = {
  name: 'replay',
  synopsis: '--controller NAME --from TIME|AGE [--to TIME|AGE] [--json]',
  positionals: [0, 0],
  summary: 'this build of a controller over a window of history, beside what the deployed one did',
  about:
    "Runs the controller's service's `replay` from this checkout with every argument passed on, so it takes any " +
    'flag of that service too (kcm-bus replay --controller NAME --help lists them). Exit status 0: the same; 1: some key differs; 2: trouble.',
  flags: [
    ...REPLAY_FLAGS.map((f) =>
      f.name !== 'controller'
        ? f
        : {
            ...f,
            help: `The controller to replay, by upstream name: ${Object.keys(CONTROLLER_SERVICES).join(', ')}. Required.`,
          },
    ),
    ...CONNECTION_FLAGS,
  ],
  passOn: true,
  run: (line) => replayCommand(line),
};

/**
 * replayCommand runs the service of the controller --controller names on the whole command line, and ends with its
 * exit status. Until --controller names one, --help is replay's own help and anything else a FlagError.
 */
export async function replayCommand(line: CommandLine): Promise<number> {
  const controller = line.flags.string('controller');
  const service = Object.hasOwn(CONTROLLER_SERVICES, controller) ? CONTROLLER_SERVICES[controller] : undefined;
  if (service === undefined) {
    if (!wantsHelp(line.argv))
      throw new FlagError(`--controller must be one of ${Object.keys(CONTROLLER_SERVICES).join(', ')}`);
    console.log(commandHelp(REPLAY_COMMAND));
    return 0;
  }
  const launch = serviceLaunch(serviceScript(service), ['replay', ...line.argv]);
  const child = spawn(launch.command, launch.args, { stdio: 'inherit', env: launch.env });
  return new Promise((resolve) => child.once('close', (code) => resolve(code ?? 2)));
}
