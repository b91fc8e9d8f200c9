/** inParallel maps items with at most `width` calls in flight, keeping the order. */
export async function inParallel<T, R>(items: readonly T[], fn: (item: T) => Promise<R>, width = 64): Promise<R[]> {
  const out: R[] = new Array<R>(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(width, items.length) }, async () => {
      for (let i = next++; i < items.length; i = next++) out[i] = await fn(items[i] as T);
    }),
  );
  return out;
}
