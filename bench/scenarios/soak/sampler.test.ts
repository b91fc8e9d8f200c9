import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { lagBehindWatcher } from './sampler.ts';

const WATCHER = `# HELP kcm_bus_watcher_last_watermark_timestamp_seconds x
kcm_bus_watcher_last_watermark_timestamp_seconds{kind="Pod",resource="pods"} 1000
kcm_bus_watcher_last_watermark_timestamp_seconds{kind="ReplicationController",resource="replicationcontrollers"} 999.5
`;

const reconciler = (podsAge: number, rcsAge: number): string => `kcm_bus_input_watermark_age_seconds_other 7
kcm_bus_input_watermark_age_seconds{controller="rc",topic="kcm.state.pods"} ${podsAge}
kcm_bus_input_watermark_age_seconds{controller="rc",topic="kcm.state.replicationcontrollers"} ${rcsAge}
kcm_bus_input_watermark_age_seconds{controller="rc",topic="kcm.state.leases"} 40
`;

describe('lagBehindWatcher', () => {
  it("given the watcher's newest watermarks and the reconciler's ages, then the largest gap, whatever the watermarks' age", () => {
    // At 1001.0 s: pods complete up to 999.2 (0.8 s behind the watcher's 1000), RCs up to 999.5 (caught up).
    assert.equal(lagBehindWatcher(reconciler(1.8, 1.5), WATCHER, 1_001_000)?.toFixed(2), '0.80');
    assert.equal(lagBehindWatcher(reconciler(1.0, 1.5), WATCHER, 1_001_000), 0);
  });

  it('given no watermark of the watcher for the inputs, then no figure', () => {
    assert.equal(lagBehindWatcher(reconciler(1, 1), '', 1_001_000), undefined);
  });
});
