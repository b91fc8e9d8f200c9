import { spawn } from 'node:child_process';
import { createWriteStream, type WriteStream } from 'node:fs';

/** ShOptions says where a command runs and where its output goes. */
export type ShOptions = {
  readonly cwd?: string;
  readonly env?: NodeJS.ProcessEnv;
  /** Output of the command is appended here; without it, it is captured and returned. */
  readonly log?: WriteStream;
};

/** CommandError names the command that failed and its exit status. */
export class CommandError extends Error {
  readonly output: string;
  constructor(message: string, output: string) {
    super(message);
    this.output = output;
  }
}

/** sh runs a command to completion (no shell) and resolves with its output, or rejects with CommandError. */
export function sh(cmd: string, args: readonly string[], opts: ShOptions = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: opts.cwd, env: opts.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] });
    const chunks: Buffer[] = [];
    const collect = (b: Buffer): void => {
      if (opts.log) opts.log.write(b);
      else chunks.push(b);
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    child.on('error', (err) => reject(new CommandError(`${cmd}: ${err.message}`, '')));
    child.on('close', (code, signal) => {
      const out = Buffer.concat(chunks).toString('utf8');
      if (code === 0) resolve(out);
      else reject(new CommandError(`${cmd} ${args.join(' ')} exited with ${code ?? signal}`, out));
    });
  });
}

/** openLog opens a log file for appending, headed by the command line that will write to it. */
export function openLog(path: string): WriteStream {
  return createWriteStream(path, { flags: 'a' });
}
