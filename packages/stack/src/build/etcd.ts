import { join } from 'node:path';
import { VERSIONS } from '../versions.ts';
import type { Recipe } from '../obtain.ts';
import { go } from './go.ts';

const MODULE = 'go.etcd.io/etcd/server/v3';

/** etcdRecipe builds etcd from the Go module proxy through a throwaway module that requires it as a tool. */
export const etcdRecipe: Recipe = {
  part: 'etcd',
  version: VERSIONS.etcd,
  async build(dir, log) {
    await go(['mod', 'init', 'kcm-bus.local/etcd-build'], dir, log);
    await go(['get', '-tool', `${MODULE}@${VERSIONS.etcd}`], dir, log);
    await go(['build', '-trimpath', '-o', join(dir, 'bin', 'etcd'), MODULE], dir, log);
  },
};
