import { Command } from 'commander';
import { readCommitArg } from '../commit-id.js';
import type { CliIo } from '../io.js';
import { openExisting } from '../open-repository.js';
import type { CommonOptions } from '../options.js';
import { repoPath, withCommon } from '../options.js';
import { emit, table } from '../output.js';
import { stateCounts, statesText } from '../states.js';

/** The `show` command: one commit and its items. */
export function showCommand(io: CliIo): Command {
  return withCommon(new Command('show').description('Show one context commit: its metadata and every item with its state, tokens and reason.'))
    .argument('<commit>', 'commit id, or a unique prefix of 4+ hex digits (as `ctxgit log` prints it)')
    .addHelpText('after', '\nJSON (--json): the ContextCommit { id, session, parentIds, headNodeId, rulesVersion, model, window, totalTokens, items, summary, createdAt }')
    .action(async (id: string, opts: CommonOptions) => {
      const repo = await openExisting(repoPath(io, opts));
      const c = await readCommitArg(repo, id);
      const head = [
        `commit ${c.id}`,
        `session ${c.session}   head node ${c.headNodeId}`,
        `parents ${c.parentIds.length === 0 ? '(none)' : c.parentIds.join(' ')}`,
        `model ${c.model}   window ${c.window}   tokens ${c.totalTokens}   rules ${c.rulesVersion}`,
        `created ${new Date(c.createdAt).toISOString()}`,
        `items ${c.items.length}: ${statesText(stateCounts(c.items, c.foldedItems))}; unchanged prefix ${c.summary.firstChangedIndex} items`,
        '',
      ].join('\n');
      const rows = c.items.map((it, i) => [String(i), it.key, it.role, it.state, String(it.tokens), it.reason]);
      emit(io, opts, { json: c, text: `${head}${table([['#', 'key', 'role', 'state', 'tokens', 'reason'], ...rows])}` });
    });
}
