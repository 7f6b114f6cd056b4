import type { Repo } from '@ctxgit/commit';
import type { Node } from '@ctxgit/dag';
import { itemFromNode } from '@ctxgit/rules';
import type { Tokenizer } from '@ctxgit/tokenize';

/**
 * Tokens of a whole branch with every node in full (tool calls and their results included), from the root to a node:
 * what the model would be fed without ctxgit. Nodes never change, so a branch total is computed once per node and
 * kept for the life of the viewer; a later call walks only back to the nearest node already counted.
 */
export class FullHistory {
  readonly #repo: Repo;
  readonly #totals = new Map<string, number>();

  constructor(repo: Repo) {
    this.#repo = repo;
  }

  /** Branch tokens up to and including `nodeId` and its tool calls. */
  async upTo(nodeId: string, tokenizer: Tokenizer): Promise<number> {
    const chain: Node[] = [];
    let id: string | undefined = nodeId;
    let base = 0;
    while (id !== undefined) {
      const known = this.#totals.get(id);
      if (known !== undefined) {
        base = known;
        break;
      }
      const node: Node | undefined = await this.#repo.store.getNode(id);
      if (node === undefined) break;
      chain.push(node);
      id = node.predecessor;
    }
    let total = base;
    for (const node of chain.reverse()) {
      total += itemFromNode(node, tokenizer).tokens;
      for (const callee of await this.#repo.store.calleesOf(node.id)) {
        const call = await this.#repo.store.getNode(callee);
        if (call !== undefined) total += itemFromNode(call, tokenizer).tokens;
      }
      this.#totals.set(node.id, total);
    }
    return total;
  }
}
