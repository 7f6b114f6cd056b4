import { Command, Option } from 'commander';
import type { CliIo } from '../io.js';
import { openExisting } from '../open-repository.js';
import type { CommonOptions } from '../options.js';
import { repoPath, withCommon } from '../options.js';
import type { RenderArgs } from '../render-args.js';
import { renderCommit, withRenderOptions } from '../render-args.js';
import { resolveSession } from '../resolve-session.js';
import { sessionCommits } from '../session-commits.js';

interface ExportOptions extends CommonOptions, RenderArgs {
  readonly session?: string;
}

/** The `export` command: one JSON line per model call. */
export function exportCommand(io: CliIo): Command {
  return withRenderOptions(
    withCommon(
      new Command('export')
        .description('Print one JSON line per model call of a session, oldest first: the commit and exactly what `ctxgit render` returns for it.')
        .addOption(new Option('--session <name>', 'the session (default: the only session of the repository)')),
    ),
    true,
  )
    .addHelpText('after', '\nEach line: { "commit", "headNodeId", "totalTokens", "provider", "request" }. Output is JSON lines with or without --json.')
    .action(async (opts: ExportOptions) => {
      const repo = await openExisting(repoPath(io, opts));
      const commits = await sessionCommits(repo, await resolveSession(repo, opts.session));
      const lines = commits.map((c) => JSON.stringify({ commit: c.id, headNodeId: c.headNodeId, totalTokens: c.totalTokens, provider: opts.provider, request: renderCommit(c, opts) }));
      io.stdout.write(lines.map((l) => `${l}\n`).join(''));
    });
}
