import type { WriteStream } from 'node:fs';
import { sh } from '../sh.ts';

/** PLUGIN pins the maven-dependency-plugin for resolving a project's dependencies. */
export const PLUGIN = 'org.apache.maven.plugins:maven-dependency-plugin:3.8.1';

/**
 * COPY_PLUGIN copies one artifact without reading its descriptor: 3.x reads the POM's parent, and
 * Apicurio's parent POM is not published on Maven Central, so only 2.10's plain copy fetches it.
 */
export const COPY_PLUGIN = 'org.apache.maven.plugins:maven-dependency-plugin:2.10';

/** mvn runs Maven in batch mode, logging its output. */
export async function mvn(args: readonly string[], cwd: string, log: WriteStream): Promise<void> {
  log.write(`\n$ mvn ${args.join(' ')}\n`);
  await sh('mvn', ['-B', '--no-transfer-progress', ...args], { cwd, log });
}
