import { Command } from 'commander';
import { readCommitArg } from '../commit-id.js';
import type { CliIo } from '../io.js';
import { openExisting } from '../open-repository.js';
import type { CommonOptions } from '../options.js';
import { repoPath, withCommon } from '../options.js';
import { emit, table } from '../output.js';

/** The `diff` command: which items changed state between two commits, and why. */
export function diffCommand(io: CliIo): Command {
  return withCommon(
    new Command('diff')
      .description('Compare two commits item by item: items added, removed, or whose state or content changed, with the reason the rules gave.')
      .argument('<a>', 'older commit id (or unique prefix)')
      .argument('<b>', 'newer commit id (or unique prefix)'),
  )
    .addHelpText('after', '\nJSON (--json): { "a", "b", "tokens": [a, b], "changes": [{ "key", "role", "from", "to", "tokensFrom", "tokensTo", "reason" }] }')
    .action(async (a: string, b: string, opts: CommonOptions) => {
      const repo = await openExisting(repoPath(io, opts));
      const ca = await readCommitArg(repo, a);
      const cb = await readCommitArg(repo, b);
      const diff = await repo.diff(ca.id, cb.id);
      const rows = diff.changes.map((c) => [c.key, c.role, `${c.from ?? '(none)'} -> ${c.to ?? '(none)'}`, `${c.tokensFrom ?? 0} -> ${c.tokensTo ?? 0}`, c.reason]);
      emit(io, opts, {
        json: diff,
        text: [
          `${ca.id.slice(0, 12)} -> ${cb.id.slice(0, 12)}: ${ca.totalTokens} -> ${cb.totalTokens} tokens, ${diff.changes.length} items changed`,
          ...(rows.length === 0 ? [] : [table([['key', 'role', 'state', 'tokens', 'reason'], ...rows])]),
        ].join('\n'),
      });
    });
}
