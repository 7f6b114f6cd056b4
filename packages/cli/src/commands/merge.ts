import { Command, Option } from 'commander';
import type { CliIo } from '../io.js';
import { openExisting } from '../open-repository.js';
import type { CommonOptions } from '../options.js';
import { repoPath, withCommon } from '../options.js';
import { emit } from '../output.js';
import { resolveSession } from '../resolve-session.js';
import { stateCounts, statesText } from '../states.js';
import { withDate, writeClock } from '../write-date.js';

interface MergeOptions extends CommonOptions {
  readonly session?: string;
  readonly instruction?: string;
  readonly base?: string;
  readonly date?: number;
}

/** The `merge` command: merges peer sessions into a target with a multi-parent commit. */
export function mergeCommand(io: CliIo): Command {
  return withDate(withCommon(
    new Command('merge')
      .description(
        'Merge peer sessions into the target session: one attach pointer per peer, an optional instruction, and a commit whose git parents ' +
          "are the target's previous commit and each peer's latest commit.",
      )
      .argument('<peers...>', 'sessions to merge in, in order')
      .addOption(new Option('--session <name>', 'the target session (default: the only session of the repository)'))
      .addOption(new Option('--instruction <text>', 'user message appended after the merged context'))
      .addOption(new Option('--base <peer>', 'the peer whose block is locked (default: the first peer)')),
  ))
    .addHelpText('after', '\nJSON (--json): { "session", "commit", "parentIds", "totalTokens", "states" }')
    .action(async (peers: string[], opts: MergeOptions) => {
      const clock = writeClock(io, opts.date);
      const repo = await openExisting(repoPath(io, opts), clock);
      const target = await resolveSession(repo, opts.session);
      for (const p of peers) await resolveSession(repo, p);
      const c = await repo.merge({
        target,
        peers,
        ...(opts.instruction === undefined ? {} : { instruction: opts.instruction }),
        ...(opts.base === undefined ? {} : { base: opts.base }),
      });
      const states = stateCounts(c.items, c.foldedItems);
      emit(io, opts, {
        json: { session: target, commit: c.id, parentIds: [...c.parentIds], totalTokens: c.totalTokens, states },
        text: `merged ${peers.join(', ')} into ${target}: commit ${c.id} with ${c.parentIds.length} parents (${c.totalTokens} tokens; ${statesText(states)})`,
      });
    });
}
