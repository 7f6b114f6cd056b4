import type { ToolCatalogue } from '@ctxgit/rules';
import type { RepoCore } from '../repo-core.js';
import { swapRef } from '../swap-ref.js';
import type { CatalogueCache } from './catalogue-cache.js';
import { writeCatalogueTree } from './catalogue-tree.js';
import { toolsRef } from '../refs.js';
import { readToolsTree, writeToolsCommit } from './tools-ref.js';

/** Stores a validated catalogue as the session's `tools` ref (objects first, then a compare-and-swap); a no-op when unchanged. */
export async function storeCatalogue(core: RepoCore, session: string, catalogue: ToolCatalogue, now: number, cache: CatalogueCache): Promise<void> {
  const before = await readToolsTree(core.git, session);
  const tree = await writeCatalogueTree(core.git, catalogue);
  cache.put(tree, catalogue);
  if (before?.tree === tree) return;
  const commit = await writeToolsCommit(core.git, session, tree, catalogue, before?.commit ?? null, now);
  await swapRef(core, session, toolsRef(session), before?.commit ?? null, commit);
}
