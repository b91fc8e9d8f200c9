/**
 * VERSIONS pins every part of the local stack; the cache is keyed by these values, so changing one
 * rebuilds that part only. Verified together on this machine kind (see ../shared/STACK.md).
 */
export const VERSIONS = {
  kubernetes: 'v1.37.2',
  etcd: 'v3.6.16',
  kwok: 'v0.8.0',
  kafka: '3.9.1',
  kafkaScala: '2.13',
  apicurio: '3.0.9',
  /** reload4j binding for Kafka 3.9's log4j 1.x configuration. */
  slf4jReload4j: '1.7.36',
} as const;
