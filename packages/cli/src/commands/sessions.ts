import { Command } from 'commander';
import type { CliIo } from '../io.js';
import { openExisting } from '../open-repository.js';
import type { CommonOptions } from '../options.js';
import { repoPath, withCommon } from '../options.js';
import { emit, table } from '../output.js';

/** The `sessions` command: lists the sessions of a repository. */
export function sessionsCommand(io: CliIo): Command {
  return withCommon(new Command('sessions').description('List the sessions of the repository, sorted by name.'))
    .addHelpText('after', '\nJSON (--json): { "sessions": [{ "id", "head", "model", "window", "commits" }] } (head: node id or null)')
    .action(async (opts: CommonOptions) => {
      const repo = await openExisting(repoPath(io, opts));
      const sessions = [];
      for (const id of await repo.listSessions()) {
        const s = await repo.openSession(id);
        sessions.push({ id, head: await s.head(), model: s.model, window: s.window, commits: (await s.log()).length });
      }
      emit(io, opts, {
        json: { sessions },
        text:
          sessions.length === 0
            ? 'no sessions'
            : table([['session', 'commits', 'model', 'window', 'head'], ...sessions.map((s) => [s.id, String(s.commits), s.model, String(s.window), s.head ?? '-'])]),
      });
    });
}
