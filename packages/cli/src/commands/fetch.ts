import { Command, Option } from 'commander';
import type { CliIo } from '../io.js';
import { openOrCreate } from '../open-repository.js';
import type { CommonOptions } from '../options.js';
import { repoPath, withCommon } from '../options.js';
import { emit } from '../output.js';
import { collect, envAuth, remoteOf } from '../remote-auth.js';
import { withDate, writeClock } from '../write-date.js';

interface FetchOptions extends CommonOptions {
  readonly session?: string[];
  readonly date?: number;
}

/** The `fetch` command (and `clone`, which fetches into a new repository): `Repo.fetch` of `@ctxgit/commit`. */
function transferIn(io: CliIo, name: 'fetch' | 'clone', description: string): Command {
  return withDate(withCommon(
    new Command(name)
      .description(description)
      .argument('<url>', 'http(s) URL of the server repository, without credentials (set CTXGIT_REMOTE_USER and CTXGIT_REMOTE_PASSWORD)')
      .addOption(new Option('--session <name>', 'a session to fetch (repeat for more; default: every session of the server)').argParser(collect)),
  ))
    .addHelpText('after', '\nJSON (--json): { "sessions", "reapplied", "renamed", "updated" }')
    .action(async (url: string, opts: FetchOptions) => {
      const clock = writeClock(io, opts.date);
      const repo = await openOrCreate(repoPath(io, opts), clock === undefined ? {} : { clock });
      const auth = envAuth(io);
      const result = await repo.fetch(remoteOf(url), { ...(opts.session === undefined ? {} : { sessions: opts.session }), ...(auth === undefined ? {} : { onAuth: auth }) });
      emit(io, opts, {
        json: result,
        text: `fetched ${result.sessions.length} sessions (${result.sessions.join(', ')}), ${result.updated.length} refs updated${result.reapplied.length > 0 ? `; re-applied local turns of ${result.reapplied.join(', ')}` : ''}`,
      });
    });
}

/** The `fetch` command. */
export function fetchCommand(io: CliIo): Command {
  return transferIn(io, 'fetch', "Fetch sessions from a git server: only their refs and the objects this repository lacks; local turns the server lacks are kept (re-applied on top).");
}

/** The `clone` command: a fetch into a new (or empty) repository. */
export function cloneCommand(io: CliIo): Command {
  return transferIn(io, 'clone', 'Create a repository (--repo, created when missing) from the sessions of a git server.');
}
