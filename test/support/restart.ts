import { stackConfig } from '@kcm-bus/stack/config.ts';
import { restartPart, type RestartOptions } from '@kcm-bus/harness/restart.ts';

/**
 * restartApiserver stops the test stack's kube-apiserver by its pid and starts it again: its watch cache
 * then begins at the current resourceVersion, so a watch from an older one gets 410 Gone.
 */
export async function restartApiserver(): Promise<void> {
  await restartTestPart('kube-apiserver');
}

/** restartTestPart restarts one part of the test stack (the harness's restartPart). */
export async function restartTestPart(name: string, o: RestartOptions = {}): Promise<void> {
  await restartPart(stackConfig(process.env['KCM_BUS_TEST_PROFILE'] ?? 'test'), name, o);
}
