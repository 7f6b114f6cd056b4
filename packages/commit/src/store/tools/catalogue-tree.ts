import type { CatalogueTool } from '@ctxgit/rules';
import { createToolCatalogue, type ToolCatalogue } from '@ctxgit/rules';
import { canonicalJson } from '@ctxgit/dag';
import type { GitContext } from '../../git/git-context.js';
import { inBatches } from '../../git/internal/in-batches.js';
import { readBlob } from '../../git/read-blob.js';
import { readTree } from '../../git/read-tree.js';
import type { TreeEdit } from '../../git/tree-edit.js';
import { updateTree } from '../../git/update-tree.js';
import { writeBlob } from '../../git/write-blob.js';

const decoder = new TextDecoder('utf-8', { fatal: true });

/** Tree path of a tool below the catalogue root: its groups as folders, the tool as `<name>.json`. */
export function toolBlobPath(path: string): string[] {
  const segments = path.split('/');
  segments[segments.length - 1] = `${segments[segments.length - 1] as string}.json`;
  return segments;
}

/** The blob text of a tool: canonical JSON of `{ path, description?, parameters? }`, pretty enough for `git show`. */
export function toolBlob(tool: CatalogueTool): string {
  return `${canonicalJson(tool)}\n`;
}

/**
 * Writes a validated catalogue as a tree of groups (folders) whose leaves are tool blobs; returns the tree's oid. An
 * unchanged tool is the same blob, an unchanged group the same tree, in every catalogue that holds it.
 */
export async function writeCatalogueTree(ctx: GitContext, catalogue: ToolCatalogue): Promise<string> {
  const edits: TreeEdit[] = [];
  await inBatches(catalogue.tools, async (t) => {
    edits.push({ path: toolBlobPath(t.path), oid: await writeBlob(ctx, toolBlob(t)), type: 'blob' });
  });
  return updateTree(ctx, null, edits);
}

/** Reads a catalogue tree written by {@link writeCatalogueTree}. */
export async function readCatalogueTree(ctx: GitContext, tree: string): Promise<ToolCatalogue> {
  const leaves: string[] = [];
  const walk = async (oid: string): Promise<void> => {
    for (const e of await readTree(ctx, oid)) {
      if (e.type === 'tree') await walk(e.oid);
      else leaves.push(e.oid);
    }
  };
  await walk(tree);
  const tools: CatalogueTool[] = [];
  await inBatches(leaves, async (oid) => {
    tools.push(JSON.parse(decoder.decode(await readBlob(ctx, oid))) as CatalogueTool);
  });
  return createToolCatalogue(tools);
}
