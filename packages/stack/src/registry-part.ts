import { join } from 'node:path';
import { VERSIONS } from './versions.ts';
import type { StackConfig } from './config.ts';
import type { Binaries } from './obtain-all.ts';
import type { Launch } from './procs.ts';

/** registryUrl is the Confluent-compatible API of the local Apicurio registry, as clients use it. */
export function registryUrl(c: StackConfig): string {
  return `http://${c.host}:${c.ports.registry}/apis/ccompat/v7`;
}

/**
 * registryLaunch runs Apicurio Registry on loopback with its H2 database in a file of the stack's
 * state, so schema ids survive a restart of the stack (records carry them).
 */
export function registryLaunch(c: StackConfig, b: Binaries): Launch {
  const jar = join(b.dirs.get('apicurio') ?? '', `apicurio-registry-app-${VERSIONS.apicurio}-runner.jar`);
  return {
    name: 'registry',
    command: 'java',
    args: [
      '-Xms64m',
      '-Xmx384m',
      '-XX:+UseSerialGC',
      `-Dquarkus.http.host=${c.host}`,
      `-Dquarkus.http.port=${c.ports.registry}`,
      `-Dapicurio.datasource.url=jdbc:h2:file:${join(c.dir, 'registry', 'db')};DB_CLOSE_ON_EXIT=FALSE`,
      // Apicurio opens 20 H2 connections at start and gives up on one after 5 s: on a loaded 2-core machine a
      // restart then failed ("Acquisition timeout while waiting for new connection"). A small pool that waits
      // longer starts every time; a local registry serves a handful of clients.
      '-Dapicurio.datasource.jdbc.initial-size=2',
      '-Dapicurio.datasource.jdbc.min-size=2',
      '-Dapicurio.datasource.jdbc.max-size=10',
      '-Dquarkus.datasource.h2.jdbc.acquisition-timeout=60S',
      '-Dquarkus.log.console.json=false',
      '-jar',
      jar,
    ],
  };
}
