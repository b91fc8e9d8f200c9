import { FlagError, type CommandLine, type FlagSpec } from '@kcm-bus/runtime/service/index.ts';
import { WATCHED_KINDS, type WatchedKind } from '@kcm-bus/schemas/kinds.ts';
import { CONNECTION_FLAGS, connectionOf, type Connection } from './connection-options.ts';

/** ObjectArgs name one object for `history` and `trace`: its kind, its record key, and how to print. */
export type ObjectArgs = Connection & { readonly kind: WatchedKind; readonly key: string; readonly json: boolean };

/** OBJECT_SYNOPSIS is what follows `history` and `trace`. */
export const OBJECT_SYNOPSIS = 'KIND NAMESPACE/NAME [--json]';

/** OBJECT_ABOUT says how `history` and `trace` name an object. */
export const OBJECT_ABOUT =
  'KIND is a watched kind by plural, singular or kubectl short name (pods, pod, po, rc, rs); ' +
  "a namespaced object's NAME without NAMESPACE/ is in default, as kubectl's.";

/** objectFlags are the flags of `history` and `trace`: --json (doing what json says) and the connection flags. */
export function objectFlags(json: string): readonly FlagSpec[] {
  return [{ name: 'json', type: 'boolean', default: false, env: false, help: json }, ...CONNECTION_FLAGS];
}

/** kindNamed finds a watched kind by plural, singular (any case) or kubectl short name (WatchedKind.shortNames): pods, pod, Pod, po. */
export function kindNamed(name: string): WatchedKind {
  const n = name.toLowerCase();
  const found = WATCHED_KINDS.find((k) => k.plural === n || k.kind.toLowerCase() === n || k.shortNames.includes(n));
  if (!found)
    throw new FlagError(`${name} is not a watched kind; watched: ${WATCHED_KINDS.map((k) => k.plural).join(', ')}`);
  return found;
}

/**
 * objectArgs reads `KIND NAMESPACE/NAME` and the objectFlags of a command line (commandLine checked there are two);
 * a namespaced kind's name without a namespace is in `default`, as kubectl's.
 */
export function objectArgs(line: CommandLine, env: NodeJS.ProcessEnv): ObjectArgs {
  const [kindName = '', name = ''] = line.positionals;
  const kind = kindNamed(kindName);
  const key = kind.namespaced && !name.includes('/') ? `default/${name}` : name;
  if (!kind.namespaced && key.includes('/'))
    throw new FlagError(`${kind.plural} are cluster-scoped: give NAME, not ${key}`);
  return { kind, key, json: line.flags.boolean('json'), ...connectionOf(line.flags, env) };
}
