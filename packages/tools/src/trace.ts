import type { Command } from './command.ts';
import { OBJECT_ABOUT, OBJECT_SYNOPSIS, objectArgs, objectFlags, type ObjectArgs } from './object-args.ts';
import { formatTrace, stepJson, traceSteps } from './trace-chain.ts';
import { readTrace } from './trace-read.ts';
import { openScanner, type Scanner } from './topic-scan.ts';

/**
 * trace prints why an object is as it is: each mutation that targeted it (who, when, what, and the writer's outcome)
 * with the input records that caused the sync that decided it, explained (an RC's replicas change, a pod's change,
 * a retry after a result, a tick). As text one causal chain per mutation, or with json one JSON object per mutation.
 */
export async function trace(
  args: Pick<ObjectArgs, 'kind' | 'key' | 'json'>,
  s: Scanner,
  print: (line: string) => void,
): Promise<void> {
  const steps = traceSteps(args.kind, args.key, await readTrace(s, args.kind, args.key));
  const lines = args.json
    ? steps.map((step) => JSON.stringify(stepJson(args.kind, step)))
    : formatTrace(args.kind, args.key, steps);
  for (const line of lines) print(line);
}

/** TRACE_COMMAND is `kcm-bus trace KIND NAMESPACE/NAME [--json]`: output on stdout, progress of long scans on stderr. */
export const TRACE_COMMAND: Command = {
  name: 'trace',
  synopsis: OBJECT_SYNOPSIS,
  positionals: [2, 2],
  summary: 'the mutations of one object, their outcomes and the inputs that caused them',
  about: OBJECT_ABOUT,
  flags: objectFlags('One JSON object per mutation instead of one causal chain of text per mutation.'),
  run: async (line, env) => {
    const args = objectArgs(line, env);
    await trace(args, openScanner(args, 'kcm-bus-trace', console.error), console.log);
    return 0;
  },
};
