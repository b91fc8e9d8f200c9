import { parseArgs } from 'node:util';
import { WATCHED_KINDS, type WatchedKind } from '@kcm-bus/schemas/kinds.ts';
import { CONNECTION_OPTIONS, connectionOf, type Connection } from './connection-options.ts';

/** ObjectArgs name one object for `history` and `trace`: its kind, its record key, and how to print. */
export type ObjectArgs = Connection & { readonly kind: WatchedKind; readonly key: string; readonly json: boolean };

/** SHORT_NAMES are kubectl's short names of the watched kinds. */
const SHORT_NAMES: Readonly<Record<string, string>> = { po: 'pods', rc: 'replicationcontrollers', rs: 'replicasets', svc: 'services', ep: 'endpoints', no: 'nodes' };

/** kindNamed finds a watched kind by plural, singular (any case) or kubectl short name: pods, pod, Pod, po. */
export function kindNamed(name: string): WatchedKind {
  const n = name.toLowerCase();
  const plural = SHORT_NAMES[n] ?? n;
  const found = WATCHED_KINDS.find((k) => k.plural === plural || k.kind.toLowerCase() === n);
  if (!found) throw new Error(`${name} is not a watched kind; watched: ${WATCHED_KINDS.map((k) => k.plural).join(', ')}`);
  return found;
}

/**
 * parseObjectArgs reads `COMMAND KIND NAMESPACE/NAME [--json]` and the connection options; a namespaced kind's
 * name without a namespace is in `default`, as kubectl's.
 */
export function parseObjectArgs(command: string, argv: readonly string[], env: NodeJS.ProcessEnv): ObjectArgs {
  const { values, positionals } = parseArgs({ args: [...argv], allowPositionals: true, options: { json: { type: 'boolean' }, ...CONNECTION_OPTIONS } });
  const [kindName, name] = positionals;
  if (kindName === undefined || name === undefined || positionals.length > 2) throw new Error(`usage: kcm-bus ${command} KIND NAMESPACE/NAME [--json]`);
  const kind = kindNamed(kindName);
  const key = kind.namespaced && !name.includes('/') ? `default/${name}` : name;
  if (!kind.namespaced && key.includes('/')) throw new Error(`${kind.plural} are cluster-scoped: give NAME, not ${key}`);
  return { kind, key, json: values.json === true, ...connectionOf(values, env) };
}
