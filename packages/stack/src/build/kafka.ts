import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Recipe } from '../obtain.ts';
import { VERSIONS } from '../versions.ts';
import { mvn, PLUGIN } from './maven.ts';

/** kafkaRecipe copies the Kafka broker, its tools and their runtime dependencies from Maven Central. */
export const kafkaRecipe: Recipe = {
  part: 'kafka',
  version: VERSIONS.kafka,
  async build(dir, log) {
    writeFileSync(join(dir, 'pom.xml'), kafkaPom());
    await mvn([`${PLUGIN}:copy-dependencies`, '-DincludeScope=runtime', `-DoutputDirectory=${join(dir, 'libs')}`], dir, log);
  },
};

function dependency(groupId: string, artifactId: string, version: string): string {
  return `<dependency><groupId>${groupId}</groupId><artifactId>${artifactId}</artifactId><version>${version}</version></dependency>`;
}

function kafkaPom(): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>local.kcm-bus</groupId>
  <artifactId>kafka-runtime</artifactId>
  <version>${VERSIONS.kafka}</version>
  <packaging>pom</packaging>
  <dependencies>
    ${dependency('org.apache.kafka', `kafka_${VERSIONS.kafkaScala}`, VERSIONS.kafka)}
    ${dependency('org.apache.kafka', 'kafka-tools', VERSIONS.kafka)}
    ${dependency('org.slf4j', 'slf4j-reload4j', VERSIONS.slf4jReload4j)}
  </dependencies>
</project>
`;
}
