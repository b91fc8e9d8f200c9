import type { Kafka } from 'kafkajs';

/**
 * ClientTaps are told what the Kafka clients do: the API of every request sent (Produce, Fetch, EndTxn, ...), and the
 * group of every join of a consumer group member (groupLabel of its id).
 */
export type ClientTaps = { readonly request?: (api: string) => void; readonly groupJoin?: (group: string) => void };

/** Tappable is what producers, consumers and admin clients share of kafkajs's instrumentation events. */
type Tappable = {
  readonly events: { readonly REQUEST: string; readonly GROUP_JOIN?: string };
  on(
    event: string,
    listener: (e: { readonly payload: { readonly apiName: string; readonly groupId: string } }) => void,
  ): unknown;
};

/** UUID_SUFFIX is the random part of an ephemeral group's id (`<group>.global.<uuid>`, `kcm-bus-read-<uuid>`). */
const UUID_SUFFIX = /[.-][0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** groupLabel is a group id without an ephemeral group's random suffix: a metric label that does not grow. */
export function groupLabel(groupId: string): string {
  return groupId.replace(UUID_SUFFIX, '');
}

/**
 * tapClients makes every producer, consumer and admin client the Kafka object builds tell taps.request the API of
 * each request it sends (kafkajs's REQUEST instrumentation event): what a service asks of the broker, per API, is
 * the broker's side of its CPU (a transaction is an AddPartitionsToTxn, a Produce and an EndTxn, and the commit
 * markers the broker then writes to every partition in it). Every consumer tells taps.groupJoin of each join
 * (GROUP_JOIN): a member's joins after its first are rebalances, its own lost sessions among them.
 */
export function tapClients(kafka: Kafka, taps: ClientTaps): void {
  const tap = <C>(client: C): C => {
    const instrumented = client as unknown as Tappable;
    const { request, groupJoin } = taps;
    if (request) instrumented.on(instrumented.events.REQUEST, (e) => request(e.payload.apiName));
    const joined = instrumented.events.GROUP_JOIN;
    if (groupJoin && joined) instrumented.on(joined, (e) => groupJoin(groupLabel(e.payload.groupId)));
    return client;
  };
  const [producer, consumer, admin] = [kafka.producer.bind(kafka), kafka.consumer.bind(kafka), kafka.admin.bind(kafka)];
  kafka.producer = (config) => tap(producer(config));
  kafka.consumer = (config) => tap(consumer(config));
  kafka.admin = (config) => tap(admin(config));
}
