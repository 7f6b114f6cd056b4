import type { ToolCatalogue } from '@ctxgit/rules';
import type { GitContext } from '../../git/git-context.js';
import { readCatalogueTree } from './catalogue-tree.js';

/** Catalogues kept at most. */
const SIZE = 4;

/**
 * Parsed catalogues by tree oid, so that a commit does not re-read a thousand tool blobs. Owned by the sessions of
 * one open repository (content-addressed: any session may share an entry).
 */
export class CatalogueCache {
  readonly #byTree = new Map<string, ToolCatalogue>();

  /** The catalogue of `tree`, from the cache or from git. */
  async get(ctx: GitContext, tree: string): Promise<ToolCatalogue> {
    const hit = this.#byTree.get(tree);
    if (hit !== undefined) return hit;
    const catalogue = await readCatalogueTree(ctx, tree);
    this.put(tree, catalogue);
    return catalogue;
  }

  /** Remembers a catalogue just written. */
  put(tree: string, catalogue: ToolCatalogue): void {
    this.#byTree.delete(tree);
    this.#byTree.set(tree, catalogue);
    for (const k of this.#byTree.keys()) {
      if (this.#byTree.size <= SIZE) break;
      this.#byTree.delete(k);
    }
  }
}
