/**
 * onInterrupt makes a long command stop what it started when a user stops it: on the first SIGINT (Ctrl-C) or SIGTERM
 * it runs cleanup and exits with 130 (143 after SIGTERM), as a shell reports a command ended by that signal; a second
 * signal during the cleanup exits at once. A detached part (the stack's Kafka, apiserver, …) would outlive the command
 * otherwise. Returns the function that removes the handlers, for the path that cleaned up by itself.
 */
export function onInterrupt(cleanup: () => Promise<unknown>, say: (line: string) => void): () => void {
  let stopping = false;
  const stop = (signal: NodeJS.Signals): void => {
    if (stopping) process.exit(1);
    stopping = true;
    say(`${signal}: stopping everything this run started`);
    cleanup()
      .catch((err: unknown) => say(`cleaning up after ${signal} failed: ${String(err)}`))
      .finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  return () => {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  };
}
