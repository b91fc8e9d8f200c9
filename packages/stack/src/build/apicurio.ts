import { join } from 'node:path';
import type { Recipe } from '../obtain.ts';
import { sh } from '../sh.ts';
import { VERSIONS } from '../versions.ts';
import { mvn, COPY_PLUGIN } from './maven.ts';

/** apicurioRecipe fetches the Apicurio Registry app distribution from Maven Central and unpacks it. */
export const apicurioRecipe: Recipe = {
  part: 'apicurio',
  version: VERSIONS.apicurio,
  async build(dir, log) {
    const artifact = `io.apicurio:apicurio-registry-app:${VERSIONS.apicurio}:tar.gz:all`;
    await mvn([`${COPY_PLUGIN}:copy`, `-Dartifact=${artifact}`, `-DoutputDirectory=${dir}`], dir, log);
    const tarball = join(dir, `apicurio-registry-app-${VERSIONS.apicurio}-all.tar.gz`);
    await sh('tar', ['-xzf', tarball, '-C', dir], { log });
    await sh('rm', [tarball], { log });
  },
};
