import type { ContextItem } from './item.js';

/** Index where the tail window begins: the `tailTurns`-th last visible assistant item (0 if fewer). */
export function tailStart(items: readonly ContextItem[], tailTurns: number): number {
  if (tailTurns === 0) return items.length;
  let seen = 0;
  for (let i = items.length - 1; i >= 0; i--) {
    const it = items[i] as ContextItem;
    if (it.role === 'assistant' && it.state !== 'summarized' && ++seen === tailTurns) return i;
  }
  return 0;
}
