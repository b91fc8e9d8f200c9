import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { selectedKafka, type KafkaRelease, type MavenArtifact } from '../kafka-versions.ts';
import type { Recipe } from '../obtain.ts';
import { VERSIONS } from '../versions.ts';
import { mvn, PLUGIN } from './maven.ts';

/**
 * kafkaRecipeOf copies one Kafka release's broker, its tools and their runtime dependencies from Maven Central, with
 * the release's slf4j binding: one `copy-dependencies`, no distribution tarball. The cache is keyed by version, so
 * every release built lives beside the others.
 */
export function kafkaRecipeOf(release: KafkaRelease): Recipe {
  return {
    part: 'kafka',
    version: release.version,
    async build(dir, log) {
      writeFileSync(join(dir, 'pom.xml'), kafkaPom(release));
      await mvn(
        [`${PLUGIN}:copy-dependencies`, '-DincludeScope=runtime', `-DoutputDirectory=${join(dir, 'libs')}`],
        dir,
        log,
      );
    },
  };
}

/**
 * kafkaRecipe is the stack's Kafka, KCM_BUS_KAFKA_VERSION's or the default. Its version is read when the recipe is
 * used, not when this module is imported: an unknown version then fails the command that needs Kafka with its
 * message, and not every command that merely imports the stack.
 */
export const kafkaRecipe: Recipe = {
  part: 'kafka',
  get version() {
    return selectedKafka().version;
  },
  build: (dir, log) => kafkaRecipeOf(selectedKafka()).build(dir, log),
};

function dependency(a: MavenArtifact): string {
  return `<dependency><groupId>${a.groupId}</groupId><artifactId>${a.artifactId}</artifactId><version>${a.version}</version></dependency>`;
}

function kafkaPom(release: KafkaRelease): string {
  const kafka = (artifactId: string): MavenArtifact => ({
    groupId: 'org.apache.kafka',
    artifactId,
    version: release.version,
  });
  return `<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>local.kcm-bus</groupId>
  <artifactId>kafka-runtime</artifactId>
  <version>${release.version}</version>
  <packaging>pom</packaging>
  <dependencies>
    ${[kafka(`kafka_${VERSIONS.kafkaScala}`), kafka('kafka-tools'), release.binding].map(dependency).join('\n    ')}
  </dependencies>
</project>
`;
}
