/**
 * `work` over `items`, at most `size` at once, the results in the items' order. A failure stops
 * the pool taking more items, and is thrown once those under way have ended.
 */
export async function mapInPool<T, R>(items: readonly T[], size: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  let next = 0;
  let failed = false;
  const worker = async (): Promise<void> => {
    while (!failed && next < items.length) {
      const index = next++;
      try {
        results[index] = await work(items[index]!);
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  };
  const workers = Array.from({ length: Math.max(1, Math.min(size, items.length)) }, worker);
  const settled = await Promise.allSettled(workers);
  const rejected = settled.find((outcome) => outcome.status === "rejected");
  if (rejected) throw rejected.reason;
  return results;
}
