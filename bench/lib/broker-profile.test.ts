import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { formatSummary, SampleCounter } from './broker-profile.ts';

const SAMPLE = (thread: string, frames: readonly string[]): string[] => [
  'jdk.ExecutionSample {',
  '  startTime = 09:10:08.926',
  `  sampledThread = "${thread}" (javaThreadId = 70)`,
  '  state = "STATE_RUNNABLE"',
  '  stackTrace = [',
  ...frames.map((f, i) => `    ${f}(long) line: ${i + 1}`),
  '  ]',
  '}',
  '',
];

describe('the broker profile summary', () => {
  it('given samples, then it counts them per thread pool and per function, a function counted once a sample however deep it recurs', () => {
    const counter = new SampleCounter();
    const lines = [
      ...SAMPLE('kafka-log-cleaner-thread-0', [
        'java.util.Arrays.fill',
        'org.apache.kafka.storage.internals.log.SkimpyOffsetMap.clear',
        'kafka.log.Cleaner.clean',
      ]),
      ...SAMPLE('kafka-log-cleaner-thread-0', [
        'java.util.Arrays.fill',
        'org.apache.kafka.storage.internals.log.SkimpyOffsetMap.clear',
        'kafka.log.Cleaner.clean',
      ]),
      ...SAMPLE('data-plane-kafka-request-handler-3', [
        'kafka.server.KafkaApis.handle',
        'kafka.server.KafkaApis.handle',
        'kafka.server.KafkaRequestHandler.run',
      ]),
    ];
    for (const line of lines) counter.line(line);
    const s = counter.summary();
    assert.equal(s.samples, 3);
    assert.deepEqual(
      [...s.threads],
      [
        ['kafka-log-cleaner-thread-N', 2],
        ['data-plane-kafka-request-handler-N', 1],
      ],
    );
    assert.equal(s.frames.get('kafka.server.KafkaApis.handle'), 1);
    assert.equal(s.frames.get('java.util.Arrays.fill'), 2);
    const text = formatSummary(s);
    assert.match(text, /66\.7 %  kafka-log-cleaner-thread-N/);
    assert.match(text, /66\.7 %  kafka\.log\.Cleaner\.clean/);
    assert.doesNotMatch(text, /java\.util\.Arrays\.fill/, "the broker's own functions only");
  });
});
