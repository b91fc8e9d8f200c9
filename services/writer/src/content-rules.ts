import { CONTROLLERS } from '@kcm-bus/catalog/controllers.ts';
import type { ContentRule } from '@kcm-bus/runtime/catalog/index.ts';
import type { Mutation } from '@kcm-bus/runtime/mutation/index.ts';
import { resourceOf } from './allowlist.ts';
import { ruleRefusal } from './content-checks.ts';

/*
 * What a mutation may carry, beyond the allowlist's (controller, verb, resource): the allowlist says the RC controller
 * may create pods; the grant's content rule says which pods. The catalog gives each grant its rule as data
 * (ContentRule); content-checks.ts interprets every rule, so this file names no controller, kind or label.
 */

/** CONTENT_RULES are the catalog's rules by `controller verb resource` (resource with its subresource, as the allowlist's). */
const CONTENT_RULES: ReadonlyMap<string, ContentRule> = new Map(
  CONTROLLERS.flatMap((c) =>
    c.grants.flatMap((g) => {
      const content = g.content;
      return content === undefined ? [] : g.verbs.map((verb) => [`${c.name} ${verb} ${g.resource}`, content] as const);
    }),
  ),
);

/** EVENT_KINDS are the kinds each controller records events about, as upstream's recorders do (the catalog's eventKinds). */
const EVENT_KINDS: ReadonlyMap<string, readonly string[]> = new Map(CONTROLLERS.map((c) => [c.name, c.eventKinds]));

/** eventAbout: an event (recorded alone or after a write) is about a kind its controller acts on. */
function eventAbout(m: Mutation): string | undefined {
  const kind = m.event?.involvedObject.kind;
  const kinds = EVENT_KINDS.get(m.controller);
  return kind === undefined || kinds === undefined || kinds.includes(kind)
    ? undefined
    : `record an event about a ${kind}`;
}

/** contentRefusal says why the writer refuses a mutation for what it carries, or undefined when it may go. */
export function contentRefusal(m: Mutation): string | undefined {
  const rule = CONTENT_RULES.get(`${m.controller} ${m.verb} ${resourceOf(m)}`);
  const why = rule === undefined ? undefined : ruleRefusal(rule, m);
  if (why !== undefined) return `${m.controller} may not ${m.verb} ${why}`;
  const event = eventAbout(m);
  return event === undefined ? undefined : `${m.controller} may not ${event}`;
}
