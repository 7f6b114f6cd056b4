import { Command, Option } from 'commander';
import type { CliIo } from '../io.js';
import { openExisting } from '../open-repository.js';
import type { CommonOptions } from '../options.js';
import { repoPath, withCommon } from '../options.js';
import { emit } from '../output.js';
import { collect, envAuth, remoteOf } from '../remote-auth.js';

interface PushOptions extends CommonOptions {
  readonly session?: string[];
}

/** The `push` command: `Repo.push` of `@ctxgit/commit`. */
export function pushCommand(io: CliIo): Command {
  return withCommon(
    new Command('push')
      .description('Push sessions to a git server over smart HTTP (GitHub, GitLab, Gitea, git http-backend): each ref a compare-and-swap on the server, never forced.')
      .argument('<url>', 'http(s) URL of the server repository, without credentials (set CTXGIT_REMOTE_USER and CTXGIT_REMOTE_PASSWORD)')
      .addOption(new Option('--session <name>', 'a session to push (repeat for more; default: every session)').argParser(collect)),
  )
    .addHelpText('after', '\nExits 1 with E_REMOTE_CONFLICT when another backend pushed first (fetch, then push again). JSON (--json): { "sessions", "pushed", "skipped" }')
    .action(async (url: string, opts: PushOptions) => {
      const repo = await openExisting(repoPath(io, opts));
      const auth = envAuth(io);
      const result = await repo.push(remoteOf(url), { ...(opts.session === undefined ? {} : { sessions: opts.session }), ...(auth === undefined ? {} : { onAuth: auth }) });
      emit(io, opts, { json: result, text: `pushed ${result.pushed.length} refs of ${result.sessions.length} sessions${result.skipped.length > 0 ? ` (${result.skipped.length} left: the server has newer commits there)` : ''}` });
    });
}
