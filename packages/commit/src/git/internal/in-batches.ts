/** Most file operations one write keeps in flight, well under a process's open-file limit. */
export const IO_BATCH = 64;

/** Runs `fn` over `items`, at most {@link IO_BATCH} at a time, in order of batches. */
export async function inBatches<T>(items: readonly T[], fn: (item: T) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < items.length; i += IO_BATCH) await Promise.all(items.slice(i, i + IO_BATCH).map(fn));
}
