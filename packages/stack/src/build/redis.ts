import { sh } from '../sh.ts';

/** redisServer finds redis-server, installing Debian's package when it is missing (the only part not built). */
export async function redisServer(say: (line: string) => void): Promise<string> {
  const found = await which('redis-server');
  if (found) return found;
  say("redis-server not found: installing Debian's redis-server package (apt-get)");
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  await sh('apt-get', ['update', '-q'], { env });
  await sh('apt-get', ['install', '-y', '-q', '--no-install-recommends', 'redis-server'], { env });
  const installed = await which('redis-server');
  if (!installed) throw new Error('redis-server is still missing after apt-get install redis-server');
  return installed;
}

async function which(cmd: string): Promise<string | undefined> {
  try {
    return (await sh('sh', ['-c', `command -v ${cmd}`])).trim() || undefined;
  } catch {
    return undefined;
  }
}
