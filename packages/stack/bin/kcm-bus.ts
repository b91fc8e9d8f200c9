#!/usr/bin/env -S node --disable-warning=TimeoutNegativeWarning
import { main } from '../src/cli.ts';

process.exitCode = await main(process.argv.slice(2)).catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : String(err));
  return 1;
});
