import type { PipelineInput, ResolvedToolViewOptions } from '@ctxgit/rules';
import { advertisedTools, nextToolView, toolRoundOf } from '@ctxgit/rules';
import type { ContextCommit } from '../context-commit.js';
import type { GitContext } from '../../git/git-context.js';
import type { CatalogueCache } from './catalogue-cache.js';
import type { CommitTools } from './commit-tools.js';
import { readToolsTree } from './tools-ref.js';

/** What a session needs to advertise its tools. */
export interface ToolSettings {
  readonly toolView: ResolvedToolViewOptions;
  readonly catalogues: CatalogueCache;
}

/**
 * The tools of a session's next commit: its catalogue (the `tools` ref) viewed through the base commit's view changed
 * by the round of `inputs`; undefined when the session has no catalogue or an empty one.
 */
export async function nextCommitTools(ctx: GitContext, session: string, s: ToolSettings, base: ContextCommit | undefined, inputs: readonly PipelineInput[]): Promise<CommitTools | undefined> {
  const ref = await readToolsTree(ctx, session);
  if (ref === undefined) return undefined;
  const catalogue = await s.catalogues.get(ctx, ref.tree);
  if (catalogue.tools.length === 0) return undefined;
  const view = nextToolView(catalogue, base?.tools?.view, toolRoundOf(inputs), s.toolView);
  return { advertised: advertisedTools(catalogue, view, s.toolView), view, catalogue: ref.tree };
}
