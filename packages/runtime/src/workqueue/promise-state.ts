/** PromiseState is what a test can see of a promise without awaiting it: whether it settled, and its value. */
export type PromiseState<V> = { settled: boolean; value?: V };

/**
 * observe records when a promise fulfils, so a spec can assert that something has NOT happened yet (a get still
 * waiting, a drain not finished) without awaiting a promise that may never settle.
 */
export function observe<V>(promise: Promise<V>): PromiseState<V> {
  const state: PromiseState<V> = { settled: false };
  void promise.then((value) => Object.assign(state, { settled: true, value }));
  return state;
}

/** flush lets every already-settled promise run its callbacks: one macrotask turn, not a sleep. */
export function flush(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * settled returns the value of a promise that must already be settled (after a flush), and fails otherwise: specs
 * use it instead of await so a regression that leaves get() pending fails instead of hanging the test run.
 */
export async function settled<V>(promise: Promise<V>): Promise<V> {
  const state = observe(promise);
  await flush();
  if (!state.settled) throw new Error('expected the promise to have settled, but it is still pending');
  return state.value as V;
}
