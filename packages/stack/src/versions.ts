/**
 * VERSIONS pins every part of the local stack; the cache is keyed by these values, so changing one
 * rebuilds that part only. Verified together on this machine kind (docs/operations.md#the-local-stack).
 */
export const VERSIONS = {
  kubernetes: 'v1.37.2',
  etcd: 'v3.6.16',
  kwok: 'v0.8.0',
  /** The default Kafka; KCM_BUS_KAFKA_VERSION picks another of KAFKA_RELEASES (kafka-versions.ts), e.g. 3.9.1. */
  kafka: '4.4.0',
  kafkaScala: '2.13',
  apicurio: '3.0.9',
  /** Confluent's librdkafka client, measured beside kafkajs by `npm run bench:client`; no service depends on it. */
  kafkaJavascript: '1.10.1',
} as const;
