import type { Kafka } from 'kafkajs';

/** OnRequest is told the Kafka API of every request a client sent (Produce, Fetch, EndTxn, ...). */
export type OnRequest = (api: string) => void;

/** Tappable is what producers, consumers and admin clients share of kafkajs's instrumentation events. */
type Tappable = {
  readonly events: { readonly REQUEST: string };
  on(event: string, listener: (e: { readonly payload: { readonly apiName: string } }) => void): unknown;
};

/**
 * countRequests makes every producer, consumer and admin client the Kafka object builds tell onRequest the API of
 * each request it sends (kafkajs's REQUEST instrumentation event): what a service asks of the broker, per API, is
 * the broker's side of its CPU (a transaction is an AddPartitionsToTxn, a Produce and an EndTxn, and the commit
 * markers the broker then writes to every partition in it).
 */
export function countRequests(kafka: Kafka, onRequest: OnRequest): void {
  const tap = <C>(client: C): C => {
    const instrumented = client as unknown as Tappable;
    instrumented.on(instrumented.events.REQUEST, (e) => onRequest(e.payload.apiName));
    return client;
  };
  const [producer, consumer, admin] = [kafka.producer.bind(kafka), kafka.consumer.bind(kafka), kafka.admin.bind(kafka)];
  kafka.producer = (config) => tap(producer(config));
  kafka.consumer = (config) => tap(consumer(config));
  kafka.admin = (config) => tap(admin(config));
}
