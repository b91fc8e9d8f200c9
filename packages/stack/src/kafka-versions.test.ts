import { describe, it, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { kafkaRecipe } from './build/kafka.ts';
import { KAFKA_RELEASES, otherKafka, selectedKafka } from './kafka-versions.ts';
import { VERSIONS } from './versions.ts';

describe("the stack's Kafka: KCM_BUS_KAFKA_VERSION", () => {
  const saved = process.env['KCM_BUS_KAFKA_VERSION'];
  afterEach(() => {
    if (saved === undefined) delete process.env['KCM_BUS_KAFKA_VERSION'];
    else process.env['KCM_BUS_KAFKA_VERSION'] = saved;
  });

  it('is 4.4.0 unless set (or set empty), on log4j2', () => {
    assert.equal(VERSIONS.kafka, '4.4.0');
    for (const env of [{}, { KCM_BUS_KAFKA_VERSION: '' }]) assert.deepEqual(selectedKafka(env), KAFKA_RELEASES[0]);
    assert.equal(selectedKafka({}).logging, 'log4j2');
  });

  it('selects 3.9.1, on log4j 1.x through reload4j', () => {
    const release = selectedKafka({ KCM_BUS_KAFKA_VERSION: '3.9.1' });
    assert.equal(release.version, '3.9.1');
    assert.equal(release.logging, 'log4j');
    assert.equal(release.binding.artifactId, 'slf4j-reload4j');
  });

  it('refuses a version it does not know, naming those it knows', () => {
    assert.throws(
      () => selectedKafka({ KCM_BUS_KAFKA_VERSION: '4.0' }),
      /KCM_BUS_KAFKA_VERSION=4\.0 is not a Kafka version the stack knows: 4\.4\.0, 3\.9\.1 \(the default is 4\.4\.0\)/,
    );
  });

  it('pairs each release with one of the other major for the compatibility test', () => {
    assert.equal(otherKafka({}).version, '3.9.1');
    assert.equal(otherKafka({ KCM_BUS_KAFKA_VERSION: '3.9.1' }).version, '4.4.0');
  });

  it("keys the stack's Kafka recipe (its cache folder) by the version selected when it is used", () => {
    delete process.env['KCM_BUS_KAFKA_VERSION'];
    assert.equal(kafkaRecipe.version, '4.4.0');
    process.env['KCM_BUS_KAFKA_VERSION'] = '3.9.1';
    assert.equal(kafkaRecipe.version, '3.9.1');
    process.env['KCM_BUS_KAFKA_VERSION'] = 'latest';
    assert.throws(() => kafkaRecipe.version, /KCM_BUS_KAFKA_VERSION=latest is not a Kafka version/);
  });
});
