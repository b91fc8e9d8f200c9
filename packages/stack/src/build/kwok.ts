import { cpSync } from 'node:fs';
import { join } from 'node:path';
import type { Recipe } from '../obtain.ts';
import { VERSIONS } from '../versions.ts';
import { go, goOutput } from './go.ts';

/** KWOK_STAGES are the stage files the fake kubelet runs with (kwok 0.8 exits without any). */
export const KWOK_STAGES = [
  'node/fast/node-initialize.yaml',
  'node/heartbeat-with-lease/node-heartbeat-with-lease.yaml',
  'pod/fast/pod-ready.yaml',
  'pod/fast/pod-complete.yaml',
  'pod/fast/pod-delete.yaml',
] as const;

/** kwokRecipe installs kwok from the Go module proxy and copies its stage files from the same module. */
export const kwokRecipe: Recipe = {
  part: 'kwok',
  version: VERSIONS.kwok,
  async build(dir, log) {
    await go(['install', `sigs.k8s.io/kwok/cmd/kwok@${VERSIONS.kwok}`], dir, log, { GOBIN: join(dir, 'bin') });
    const modcache = (await goOutput(['env', 'GOMODCACHE'], dir)).trim();
    for (const stage of KWOK_STAGES) {
      cpSync(join(modcache, `sigs.k8s.io/kwok@${VERSIONS.kwok}`, 'kustomize/stage', stage), join(dir, 'stage', stage));
    }
  },
};
