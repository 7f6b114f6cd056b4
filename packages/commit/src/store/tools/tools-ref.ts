import type { ToolCatalogue } from '@ctxgit/rules';
import type { GitContext } from '../../git/git-context.js';
import { readCommitObject } from '../../git/read-commit-object.js';
import { readRef } from '../../git/read-ref.js';
import { writeCommit } from '../../git/write-commit.js';
import { toolsRef } from '../refs.js';
import { AUTHOR } from '../write-stored-commit.js';

/** The catalogue tree of a session, or undefined when it has none. */
export async function readToolsTree(ctx: GitContext, session: string): Promise<{ commit: string; tree: string } | undefined> {
  const commit = await readRef(ctx, toolsRef(session));
  if (commit === null) return undefined;
  return { commit, tree: (await readCommitObject(ctx, commit)).tree };
}

/** Writes the commit of a catalogue tree (parent: the previous one); returns its oid. */
export async function writeToolsCommit(ctx: GitContext, session: string, tree: string, catalogue: ToolCatalogue, parent: string | null, now: number): Promise<string> {
  const identity = { ...AUTHOR, timestamp: Math.floor(now / 1000), timezoneOffset: 0 };
  const message =
    `tools ${session}: ${catalogue.tools.length} tool(s) in ${catalogue.groupCount} group(s)\n\n` +
    `The tool catalogue of ctxgit session ${session}: one blob per tool, at <group>/<sub-group>/<name>.json.\n` +
    'Each context commit advertises a bounded view of it (tools/view.json in its tree).\n';
  return writeCommit(ctx, { tree, parents: parent === null ? [] : [parent], message, author: identity, committer: identity });
}
