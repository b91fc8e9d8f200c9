import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { E2E_SPECS, runE2e, specsFocus } from '../e2e/e2e.ts';

/**
 * Upstream's own e2e specs (Kubernetes v1.37.2) for the ReplicaSet, Deployment, ReplicationController, Endpoints and
 * EndpointSlice controllers, run under kcm-bus on a stack of their own: every spec that passes on kwok under
 * upstream's kube-controller-manager must pass here too. The first run builds the e2e binary into the cache (about
 * 7 minutes on two cores); later runs reuse it.
 */
describe("upstream's e2e specs under kcm-bus", () => {
  it('every spec that passes under upstream on kwok passes under kcm-bus', { timeout: 45 * 60_000 }, async () => {
    const results = await runE2e('kcm-bus', specsFocus(E2E_SPECS), (line) => console.log(`[e2e] ${line}`), 'ignore');
    const outcome = (spec: string): string => results.find((r) => r.spec === spec)?.state ?? 'did not run';
    const failed = E2E_SPECS.filter((spec) => outcome(spec) !== 'passed').map((spec) => `${outcome(spec)}: ${spec}`);
    console.log(
      `[e2e] ${E2E_SPECS.length - failed.length} of ${E2E_SPECS.length} specs passed in ${results.reduce((s, r) => s + r.seconds, 0).toFixed(0)} s`,
    );
    assert.deepEqual(failed, []);
  });
});
