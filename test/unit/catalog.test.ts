import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { CONTROLLERS, RECONCILER_SERVICES, type ReconcilerService } from '@kcm-bus/catalog/controllers.ts';
import type { Declared } from '@kcm-bus/runtime/controller/index.ts';

/** declarationsOf loads what a reconciler service runs: the DECLARATIONS of its src/declarations.ts (main.ts runs them). */
async function declarationsOf(service: ReconcilerService): Promise<readonly Declared[]> {
  return ((await import(`../../services/${service}/src/declarations.ts`)) as { DECLARATIONS: readonly Declared[] })
    .DECLARATIONS;
}

describe('the controller catalog (packages/catalog/src/controllers.ts) against what the services run', () => {
  for (const service of RECONCILER_SERVICES) {
    it(`given ${service}, then services/${service}/src/declarations.ts declares exactly the catalog's parts of its controllers`, async () => {
      const declared = (await declarationsOf(service)).map((d) => `${d.service} ${d.name} ${d.workqueue}`).sort();
      const catalog = CONTROLLERS.filter((c) => c.service === service)
        .flatMap((c) => c.parts.map((p) => `${service} ${c.name} ${p.workqueue}`))
        .sort();
      assert.deepEqual(
        declared,
        catalog,
        `services/${service}/src/declarations.ts must declare each part the catalog gives ${service}, and no other`,
      );
    });
  }

  it('given the catalog, then names, workqueues and workers flags are unique, and every grant names its resource as kubectl does', () => {
    const names = CONTROLLERS.map((c) => c.name);
    const workqueues = CONTROLLERS.flatMap((c) => c.parts.map((p) => p.workqueue));
    assert.equal(new Set(names).size, names.length, 'controller names');
    assert.equal(new Set(workqueues).size, workqueues.length, 'workqueue names');
    for (const s of RECONCILER_SERVICES) {
      const flags = CONTROLLERS.filter((c) => c.service === s).flatMap((c) => c.parts.map((p) => p.workers.name));
      assert.equal(new Set(flags).size, flags.length, `${s}'s workers flags`);
    }
    for (const g of CONTROLLERS.flatMap((c) => c.grants))
      assert.match(g.resource, /^[a-z]+(\.[a-z0-9.-]+)?(\/[a-z]+)?$/, g.resource);
  });

  it('given a grant that writes what a request body or patch decides (Create, Patch), then a content rule says what it may carry', () => {
    for (const c of CONTROLLERS) {
      for (const g of c.grants) {
        if (g.verbs.some((v) => v === 'Create' || v === 'Patch'))
          assert.ok(
            g.content !== undefined || g.resource === 'endpoints',
            `${c.name} ${g.verbs.join(',')} ${g.resource} has no content rule`,
          );
      }
    }
  });
});
