import type { ContextItem } from '@ctxgit/rules';
import type { ChunkedList } from './layout/chunked-list.js';

/** Where one item of a commit lives in its tree. */
export interface StoredItem {
  readonly item: ContextItem;
  /** Order key: the item's position name in the tree. */
  readonly orderKey: string;
  /** Oid of the item's blob. */
  readonly oid: string;
  /** Git blob oid of the original DAG node (canonical JSON), when the item comes from one. */
  readonly origin?: string;
}

/** Item key → position, shared by the commits of one line of a session; entries are only ever added, never replaced. */
type SharedPositions = Map<string, number>;

/**
 * Where each item of one commit lives, in arrays aligned with the commit's items. A child commit that keeps its
 * base's items in place and appends new ones derives its entries in the cost of what it changed: the lists share
 * their unchanged chunks, and the key index is shared and extended.
 */
export class StoredEntries {
  readonly #items: readonly ContextItem[];
  readonly #positions: SharedPositions;
  /** Order key of each item. */
  readonly orderKeys: ChunkedList<string>;
  /** Blob oid of each item. */
  readonly oids: ChunkedList<string>;
  /** Blob oid of the original DAG node of each item, when it comes from one. */
  readonly origins: ChunkedList<string | undefined>;

  private constructor(items: readonly ContextItem[], orderKeys: ChunkedList<string>, oids: ChunkedList<string>, origins: ChunkedList<string | undefined>, positions: SharedPositions) {
    this.#items = items;
    this.orderKeys = orderKeys;
    this.oids = oids;
    this.origins = origins;
    this.#positions = positions;
  }

  /** Entries with a key index of their own. */
  static build(items: readonly ContextItem[], orderKeys: ChunkedList<string>, oids: ChunkedList<string>, origins: ChunkedList<string | undefined>): StoredEntries {
    const positions: SharedPositions = new Map();
    items.forEach((it, i) => positions.set(it.key, i));
    return new StoredEntries(items, orderKeys, oids, origins, positions);
  }

  /**
   * Entries of `items`, which hold `base`'s keys at the same positions and append the rest; shares the key index
   * unless an appended key is indexed at another position (a branch that diverged), which gets an index of its own.
   */
  static extend(base: StoredEntries, items: readonly ContextItem[], orderKeys: ChunkedList<string>, oids: ChunkedList<string>, origins: ChunkedList<string | undefined>): StoredEntries {
    const positions = base.#positions;
    for (let i = base.#items.length; i < items.length; i++) {
      const at = positions.get((items[i] as ContextItem).key);
      if (at !== undefined && at !== i) return StoredEntries.build(items, orderKeys, oids, origins);
    }
    for (let i = base.#items.length; i < items.length; i++) positions.set((items[i] as ContextItem).key, i);
    return new StoredEntries(items, orderKeys, oids, origins, positions);
  }

  /** Position of the item `key`, or -1. */
  indexOf(key: string): number {
    const i = this.#positions.get(key);
    return i !== undefined && this.#items[i]?.key === key ? i : -1;
  }

  /** Whether the commit holds an item keyed `key`. */
  has(key: string): boolean {
    return this.indexOf(key) >= 0;
  }

  /** The item keyed `key` with where it lives, or undefined. */
  get(key: string): StoredItem | undefined {
    const i = this.indexOf(key);
    if (i < 0) return undefined;
    const origin = this.origins.at(i);
    return { item: this.#items[i] as ContextItem, orderKey: this.orderKeys.at(i) as string, oid: this.oids.at(i) as string, ...(origin === undefined ? {} : { origin }) };
  }
}
