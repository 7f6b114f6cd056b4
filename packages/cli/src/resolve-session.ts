import type { Repo } from '@ctxgit/commit';
import { CliError } from './errors.js';

/** The session `--session` names (which must exist), or the repository's only session when it has one. */
export async function resolveSession(repo: Repo, session: string | undefined): Promise<string> {
  const all = await repo.listSessions();
  if (session !== undefined) {
    if (!all.includes(session)) {
      throw new CliError('E_CLI_UNKNOWN_SESSION', `no session ${JSON.stringify(session)} in this repository; \`ctxgit sessions\` lists them`, { session });
    }
    return session;
  }
  if (all.length === 1) return all[0] as string;
  if (all.length === 0) throw new CliError('E_CLI_UNKNOWN_SESSION', 'the repository has no session; import one with `ctxgit import`', {});
  throw new CliError('E_CLI_USAGE', `name one session with --session (this repository has ${all.length}: ${all.slice(0, 5).join(', ')}${all.length > 5 ? ', …' : ''})`, { sessions: all.length }, { exitCode: 2 });
}
