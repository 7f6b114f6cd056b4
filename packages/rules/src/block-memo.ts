import type { Block } from './item.js';

/** `read(block)`, remembered per block in `memo` when there is one (a block never changes). */
export function remembered<T>(memo: WeakMap<Block, T> | undefined, block: Block, read: (b: Block) => T): T {
  if (memo === undefined) return read(block);
  let hit = memo.get(block);
  if (hit === undefined) memo.set(block, (hit = read(block)));
  return hit;
}
