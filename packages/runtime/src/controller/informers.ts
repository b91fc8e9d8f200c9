import { Store } from '../store/store.ts';
import type { GoneObject } from './gone-on-write.ts';
import type { ControllerHooks, HandlerOutput, InputEvent, InputScope } from './controller-types.ts';
import type { ControllerSpec, Input, Inputs, Listers } from './declaration.ts';

type Informer = { readonly name: string; readonly input: Input<unknown>; readonly store: Store<unknown> };

const NOTHING: HandlerOutput = { enqueue: [] };

/**
 * Informers are a controller's stores, one per declared input, fed by the records of its topics (client-go's
 * shared informers: a store plus the controller's handlers). The runtime alone applies records; the controller's
 * pure code reads the listers and gets each change through its handler.
 */
export class Informers<L extends Inputs> {
  readonly #byTopic = new Map<string, Informer>();
  readonly #listers: Record<string, unknown> = {};

  constructor(inputs: { readonly [K in keyof L]: Input<L[K]> }) {
    for (const [name, input] of Object.entries(inputs) as [string, Input<unknown>][]) {
      const store = new Store<unknown>(input.indexers ?? {});
      this.#byTopic.set(input.topic, { name, input, store });
      this.#listers[name] = store.lister();
    }
  }

  /** listers are the read-only views the controller's spec is built on. */
  listers(): Listers<L> {
    return this.#listers as Listers<L>;
  }

  /** topicOf is the topic of the input of that name. */
  topicOf(name: string): string {
    const informer = [...this.#byTopic.values()].find((i) => i.name === name);
    if (informer === undefined) throw new Error(`no input named ${name}`);
    return informer.input.topic;
  }

  /** topics lists the input topics of one scope. */
  topics(scope: InputScope): readonly string[] {
    return [...this.#byTopic.values()].filter((i) => i.input.scope === scope).map((i) => i.input.topic);
  }

  /**
   * apply stores a record of an input topic (projected when the input says so) and hands the change to the input's
   * handler. A delete hands over the store's last state of the object when it had one (a synthetic delete after a
   * relist carries only metadata, like client-go's DeletedFinalStateUnknown whose object is the informer's own); a
   * delete of a key the store never held tells the handler nothing.
   */
  apply(handlers: ControllerSpec<L>['handlers'], topic: string, event: InputEvent): HandlerOutput {
    const informer = this.#byTopic.get(topic);
    if (informer === undefined) return NOTHING;
    const project = informer.input.project;
    const given =
      event.object === null || event.object === undefined ? undefined : project ? project(event.object) : event.object;
    if (event.type === 'Applied' && given === undefined) return NOTHING;
    const old =
      event.type === 'Applied'
        ? informer.store.apply({ type: 'Applied', key: event.key, object: given })
        : informer.store.apply({ type: 'Deleted', key: event.key });
    const object = event.type === 'Deleted' ? (old ?? given) : given;
    if (object === undefined) return NOTHING;
    const handler = handlers[informer.name] as (e: unknown) => HandlerOutput;
    return handler({ type: event.type, key: event.key, object, old, live: event.live, observedAt: event.observedAt });
  }

  /**
   * evict drops an object a write found gone (404) from the store of its kind, when that store holds it under the
   * same uid (a recreated namesake stays), and hands the delete to the input's handler as the watch's would come.
   */
  evict(handlers: ControllerSpec<L>['handlers'], gone: GoneObject): HandlerOutput | undefined {
    const informer = [...this.#byTopic.values()].find((i) => i.input.topic.endsWith(`.${gone.resource}`));
    const held = informer?.store.lister().get(gone.key) as { metadata?: { uid?: string } } | undefined;
    if (informer === undefined || held?.metadata?.uid !== gone.uid) return undefined;
    informer.store.apply({ type: 'Deleted', key: gone.key });
    const handler = handlers[informer.name] as (e: unknown) => HandlerOutput;
    return handler({ type: 'Deleted', key: gone.key, object: held, old: held, live: true });
  }

  /**
   * globalAsAdds hands every object the global inputs hold to their handlers as an add (old: undefined), as a newly
   * started informer's list does upstream: what a member that just became active must look at once, even if the
   * records arrived before it was. The handlers' outputs are merged.
   */
  globalAsAdds(handlers: ControllerSpec<L>['handlers']): HandlerOutput {
    const outs = [...this.#byTopic.values()]
      .filter((i) => i.input.scope === 'global')
      .flatMap(({ name, store }) => {
        const handler = handlers[name] as (e: unknown) => HandlerOutput;
        return [...store.entries()].map(([key, object]) =>
          handler({ type: 'Applied', key, object, old: undefined, live: false }),
        );
      });
    return { enqueue: outs.flatMap((o) => o.enqueue), enqueueAtCut: outs.flatMap((o) => o.enqueueAtCut ?? []) };
  }

  /** dropWhere forgets the objects of the inputs of a scope whose keys match (partitions lost, or restoring). */
  dropWhere(scope: InputScope, pred: (key: string) => boolean): void {
    for (const { input, store } of this.#byTopic.values()) if (input.scope === scope) store.dropWhere(pred);
  }

  /** sizes are the objects held per input topic (kcm_bus_cached_objects). */
  sizes(): Readonly<Record<string, number>> {
    return Object.fromEntries(
      [...this.#byTopic.values()].map((i) => [i.input.topic.replace(/^kcm\.(watch|state)\./, ''), i.store.size]),
    );
  }
}

/** controllerHooks joins a controller's spec to its informers: the hooks the Controller runs. */
export function controllerHooks<L extends Inputs>(
  name: string,
  informers: Informers<L>,
  spec: ControllerSpec<L>,
): ControllerHooks {
  return {
    name,
    onEvent: (topic, event) => informers.apply(spec.handlers, topic, event),
    activated: () => informers.globalAsAdds(spec.handlers),
    evict: (gone) => informers.evict(spec.handlers, gone),
    reconcile: spec.reconcile,
    ...(spec.observedInStores === undefined ? {} : { observedInStores: spec.observedInStores }),
    ...(spec.ownsKey === undefined ? {} : { ownsKey: spec.ownsKey }),
    ...(spec.maxRetries === undefined ? {} : { maxRetries: spec.maxRetries }),
    ...(spec.waitsForOwnWrites === undefined ? {} : { waitsForOwnWrites: spec.waitsForOwnWrites }),
  };
}
