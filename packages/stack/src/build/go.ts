import type { WriteStream } from 'node:fs';
import { sh } from '../sh.ts';

/** goEnv is the environment every Go build of the stack runs in: the machine's toolchain, no cgo. */
export function goEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return { ...process.env, GOTOOLCHAIN: 'local', CGO_ENABLED: '0', GOFLAGS: '-mod=mod', ...extra };
}

/** go runs one go command in a folder, logging its output. */
export async function go(
  args: readonly string[],
  cwd: string,
  log: WriteStream,
  env?: NodeJS.ProcessEnv,
): Promise<void> {
  log.write(`\n$ go ${args.join(' ')}\n`);
  await sh('go', args, { cwd, log, env: goEnv(env) });
}

/** goOutput runs one go command and returns its standard output. */
export function goOutput(args: readonly string[], cwd: string): Promise<string> {
  return sh('go', args, { cwd, env: goEnv() });
}
