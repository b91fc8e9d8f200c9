import { kindNamed } from '@kcm-bus/tools/object-args.ts';
import { openScanner } from '@kcm-bus/tools/topic-scan.ts';
import { trace } from '@kcm-bus/tools/trace.ts';

/** TraceStep is one step of `kcm-bus trace --json`: a mutation, the controller that made it, and its result. */
export type TraceStep = { readonly verb: string; readonly controller: string; readonly result: unknown };

/**
 * podTrace is what `kcm-bus trace pod <key> --json` prints for a pod, read from a stack's topics (plaintext): the
 * mutations on it, in order, with their results.
 */
export async function podTrace(
  stack: { readonly kafkaBrokers: string[]; readonly registry: string },
  key: string,
  clientId: string,
): Promise<TraceStep[]> {
  const scanner = openScanner(
    { brokers: stack.kafkaBrokers, registry: stack.registry, security: { kafka: {}, registry: {} } },
    clientId,
    () => undefined,
  );
  const lines: string[] = [];
  await trace({ kind: kindNamed('pods'), key, json: true }, scanner, (l) => void lines.push(l));
  return lines.map((l) => JSON.parse(l) as TraceStep);
}
