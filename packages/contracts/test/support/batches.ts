/** Maps `items` through `task`, at most `size` at a time, keeping their order (bounds concurrent RPC calls). */
export async function mapInBatches<T, R>(items: readonly T[], size: number, task: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  for (let start = 0; start < items.length; start += size) {
    results.push(...(await Promise.all(items.slice(start, start + size).map(task))));
  }
  return results;
}
