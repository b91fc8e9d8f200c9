import { GO_RECIPES, JAVA_RECIPES } from './build/index.ts';
import { redisServer } from './build/redis.ts';
import { obtain, type Recipe } from './obtain.ts';
import { partDir } from './paths.ts';

/** Binaries says where every obtained part of the stack is. */
export type Binaries = {
  readonly dirs: ReadonlyMap<string, string>;
  readonly redisServer: string;
};

/**
 * obtainAll makes sure every part is in the cache: the Go builds in one lane (they compete for the CPU),
 * the Maven downloads and Redis beside them. A failed lane does not stop the others; every failure
 * is reported. A warm cache returns at once.
 */
export async function obtainAll(say: (line: string) => void): Promise<Binaries> {
  const dirs = new Map<string, string>();
  const lane = async (recipes: readonly Recipe[]): Promise<void> => {
    for (const recipe of recipes) dirs.set(recipe.part, await obtain(recipe, say));
  };
  const results = await Promise.allSettled([lane(GO_RECIPES), lane(JAVA_RECIPES), redisServer(say)]);
  const failures = results.flatMap((r) => (r.status === 'rejected' ? [String(r.reason)] : []));
  if (failures.length > 0) throw new Error(failures.join('\n\n'));
  const redis = results[2];
  return { dirs, redisServer: redis.status === 'fulfilled' ? redis.value : '' };
}

/** locateAll says where every part is or would be in the cache, without building anything (for status). */
export function locateAll(): Binaries {
  const dirs = new Map([...GO_RECIPES, ...JAVA_RECIPES].map((r) => [r.part, partDir(r.part, r.version)]));
  return { dirs, redisServer: 'redis-server' };
}
