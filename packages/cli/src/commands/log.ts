import { Command, Option } from 'commander';
import type { CliIo } from '../io.js';
import { openExisting } from '../open-repository.js';
import type { CommonOptions } from '../options.js';
import { repoPath, withCommon } from '../options.js';
import { emit, table } from '../output.js';
import { resolveSession } from '../resolve-session.js';
import { stateCounts, statesText } from '../states.js';

interface LogOptions extends CommonOptions {
  readonly session?: string;
}

/** The `log` command: a session's commits, oldest first. */
export function logCommand(io: CliIo): Command {
  return withCommon(
    new Command('log')
      .description("Show a session's context commits, oldest first (the first-parent chain of its latest commit).")
      .addOption(new Option('--session <name>', 'the session (default: the only session of the repository)')),
  )
    .addHelpText('after', '\nJSON (--json): [{ "id", "parentIds", "headNodeId", "totalTokens", "states": { "full", "aged", "cleared", "summarized", "summary" } }]')
    .action(async (opts: LogOptions) => {
      const repo = await openExisting(repoPath(io, opts));
      const s = await repo.openSession(await resolveSession(repo, opts.session));
      const entries = (await s.log()).reverse();
      const rows = [];
      for (const e of entries) {
        const c = await repo.readCommit(e.id);
        rows.push({ entry: e, json: { id: e.id, parentIds: [...e.parentIds], headNodeId: e.headNodeId, totalTokens: e.totalTokens, states: stateCounts(c.items, c.foldedItems) } });
      }
      emit(io, opts, {
        json: rows.map((r) => r.json),
        text:
          rows.length === 0
            ? `session ${s.name} has no commits`
            : table([
                ['commit', 'turn', 'tokens', 'items', 'summary'],
                ...rows.map((r) => [r.entry.id.slice(0, 12), String(r.entry.turn), String(r.entry.totalTokens), statesText(r.json.states), r.entry.message.split('\n')[0] ?? '']),
              ]),
      });
    });
}
