import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parseRequestCounts, requestsNote } from './kafka-requests.ts';
import { total } from './stats.ts';

describe('Kafka request counts of the bench', () => {
  it('given a /metrics page, then kcm_bus_kafka_requests_total is read by API, other metrics and comments ignored', () => {
    const page = [
      '# HELP kcm_bus_kafka_requests_total Requests sent to Kafka, by Kafka API (Produce, Fetch, EndTxn, ...).',
      '# TYPE kcm_bus_kafka_requests_total counter',
      'kcm_bus_kafka_requests_total{api="Produce"} 120',
      'kcm_bus_kafka_requests_total{api="EndTxn"} 40',
      'kcm_bus_kafka_requests_total_other{api="Produce"} 7',
      'process_cpu_seconds_total 3.5',
    ].join('\n');
    assert.deepEqual(parseRequestCounts(page), { Produce: 120, EndTxn: 40 });
  });

  it('given counts, then the note names the largest first, scaled, and leaves out the APIs with none', () => {
    const counts = { Fetch: 10, Produce: 30, EndTxn: 20, Heartbeat: 0 };
    assert.equal(requestsNote(counts, 2), 'Produce 60, EndTxn 40, Fetch 20');
    assert.equal(requestsNote(counts, 1, 2), 'Produce 30, EndTxn 20');
    assert.equal(total(counts), 60);
  });
});
