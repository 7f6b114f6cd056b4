/**
 * `count` elements of `items` spread evenly over it (the first always included), in order; all when
 * `count >= items.length`.
 * @example
 * ```ts
 * sampleEvenly([0, 1, 2, 3, 4, 5], 3); // [0, 2, 4]
 * ```
 */
export function sampleEvenly<T>(items: readonly T[], count: number): T[] {
  if (count >= items.length) return [...items];
  const out: T[] = [];
  for (let i = 0; i < count; i++) out.push(items[Math.floor((i * items.length) / count)] as T);
  return out;
}
