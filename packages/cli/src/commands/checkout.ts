import { Command, Option } from 'commander';
import type { Repo } from '@ctxgit/commit';
import { readCommitArg } from '../commit-id.js';
import { CliError } from '../errors.js';
import type { CliIo } from '../io.js';
import { openExisting } from '../open-repository.js';
import type { CommonOptions } from '../options.js';
import { repoPath, withCommon } from '../options.js';
import { emit } from '../output.js';
import { resolveSession } from '../resolve-session.js';
import { stateCounts, statesText } from '../states.js';
import { withDate, writeClock } from '../write-date.js';

interface CheckoutOptions extends CommonOptions {
  readonly session?: string;
  readonly date?: number;
}

/** A node id, or the head node of a commit id; refuses anything the repository does not hold. */
export async function resolveNode(repo: Repo, target: string): Promise<string> {
  const node = await repo.store.getNode(target).catch(() => undefined);
  if (node === undefined && /^[0-9a-f]{4,40}$/.test(target)) {
    const commit = await readCommitArg(repo, target).catch(() => undefined);
    if (commit !== undefined) return commit.headNodeId;
  }
  if (node === undefined) throw new CliError('E_CLI_UNKNOWN_NODE', `no node or commit ${JSON.stringify(target)} in this repository; \`ctxgit show <commit>\` lists node ids`, { target });
  if (node.role === 'tool') throw new CliError('E_CLI_UNKNOWN_NODE', `node ${target} is a tool call; check out its assistant node ${node.caller ?? ''}`, { target });
  return node.id;
}

/** The `checkout` command: moves a session's head (display-only) and shows its commit. */
export function checkoutCommand(io: CliIo): Command {
  return withDate(withCommon(
    new Command('checkout')
      .description(
        "Move a session's head to a node (a sibling from a retry or edit, another branch) and find or write that head's commit. " +
          'Display-only: it re-renders, never re-runs a model, and rolls back nothing outside the repository.',
      )
      .argument('<node>', 'node id, or a commit id or prefix (its head node)')
      .addOption(new Option('--session <name>', 'the session (default: the only session of the repository)')),
  ))
    .addHelpText('after', '\nJSON (--json): { "session", "head", "siblings": { "index", "total" }, "commit", "totalTokens", "states" }')
    .action(async (target: string, opts: CheckoutOptions) => {
      const clock = writeClock(io, opts.date);
      const repo = await openExisting(repoPath(io, opts), clock);
      const s = await repo.openSession(await resolveSession(repo, opts.session));
      const node = await resolveNode(repo, target);
      const c = await s.checkout(node, { commit: true });
      if (c === undefined) throw new CliError('E_CLI_INTERNAL', 'checkout wrote no commit', { node });
      const sib = await s.siblings(node);
      const states = stateCounts(c.items, c.foldedItems);
      emit(io, opts, {
        json: { session: s.name, head: node, siblings: { index: sib.index, total: sib.total }, commit: c.id, totalTokens: c.totalTokens, states },
        text: `${s.name}: head ${node} < ${sib.index}/${sib.total} >, commit ${c.id} (${c.totalTokens} tokens; ${statesText(states)})`,
      });
    });
}
