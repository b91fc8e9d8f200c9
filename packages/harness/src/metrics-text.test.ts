import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { metricSamples, parseMetrics, sumsBy } from './metrics-text.ts';

const PAGE = `# HELP kcm_bus_input_watermark_age_seconds x
kcm_bus_input_watermark_age_seconds_other 7
kcm_bus_input_watermark_age_seconds{controller="rc",topic="kcm.state.pods"} 1
kcm_bus_input_watermark_age_seconds{controller="rc",topic="kcm.state.replicationcontrollers"} 2
kcm_bus_input_watermark_age_seconds{controller="rs",topic="kcm.state.pods"} 40
`;

describe('metricSamples', () => {
  it('given a page, then the samples of that metric only, with their labels', () => {
    const samples = metricSamples(PAGE, 'kcm_bus_input_watermark_age_seconds');
    assert.deepEqual(samples[0], { labels: { controller: 'rc', topic: 'kcm.state.pods' }, value: 1 });
    assert.equal(samples.length, 3);
  });
});

describe('parseMetrics', () => {
  it("given labels, then the sum of the samples that have them, not a longer metric's", () => {
    const read = parseMetrics(PAGE);
    assert.equal(read('kcm_bus_input_watermark_age_seconds', { topic: 'kcm.state.pods' }), 41);
    assert.equal(read('kcm_bus_input_watermark_age_seconds', { controller: 'rc' }), 3);
    assert.equal(read('kcm_bus_input_watermark_age_seconds_other'), 7);
  });

  it('given a metric or labels the page lacks, then 0', () => {
    assert.equal(parseMetrics(PAGE)('kcm_bus_missing'), 0);
    assert.equal(parseMetrics(PAGE)('kcm_bus_input_watermark_age_seconds', { controller: 'node' }), 0);
  });
});

describe('sumsBy', () => {
  it('given a key of the labels, then the sums by key, samples without one left out', () => {
    const sums = sumsBy(PAGE, 'kcm_bus_input_watermark_age_seconds', (l) => l['topic']);
    assert.deepEqual(sums, { 'kcm.state.pods': 41, 'kcm.state.replicationcontrollers': 2 });
    assert.deepEqual(
      sumsBy(PAGE, 'kcm_bus_input_watermark_age_seconds', (l) => (l['controller'] === 'rs' ? 'rs' : undefined)),
      { rs: 40 },
    );
  });
});
