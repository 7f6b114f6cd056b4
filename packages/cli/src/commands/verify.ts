import { Command, Option } from 'commander';
import { verifyRepo } from '@ctxgit/commit';
import { CliError } from '../errors.js';
import type { CliIo } from '../io.js';
import { openExisting } from '../open-repository.js';
import type { CommonOptions } from '../options.js';
import { repoPath, withCommon } from '../options.js';
import { emit } from '../output.js';

interface VerifyOptions extends CommonOptions {
  readonly record?: boolean;
  readonly previous?: string;
}

/** The `verify` command: `verifyRepo` of `@ctxgit/commit`, printed. */
export function verifyCommand(io: CliIo): Command {
  return withCommon(
    new Command('verify')
      .description(
        'Check the repository end to end: every ref points to an object of the right kind, every context commit\'s items hash to what ' +
          'its tree says and their origins are the DAG nodes byte for byte, every summary\'s originals exist, the DAG is readable, ' +
          'acyclic and its indexes exact, and it only grew since the previous verification (the token in refs/ctxgit/verified).',
      )
      .addOption(new Option('--record', 'when the repository is sound, store the verified DAG commit in refs/ctxgit/verified'))
      .addOption(new Option('--previous <token>', 'compare with this token of an earlier run instead of the recorded one')),
  )
    .addHelpText('after', '\nExits 1 when an error is found (warnings do not fail). JSON (--json): { "ok", "issues": [{ "code", "severity", "path", "message" }], "counts", "token", "previous", "recorded" }')
    .action(async (opts: VerifyOptions) => {
      const repo = await openExisting(repoPath(io, opts));
      const report = await verifyRepo(repo, { ...(opts.record === true ? { record: true } : {}), ...(opts.previous === undefined ? {} : { previous: opts.previous }) });
      const c = report.counts;
      const errors = report.issues.filter((i) => i.severity === 'error');
      emit(io, opts, {
        json: report,
        text: [
          `${report.ok ? 'ok' : 'FAILED'}: ${c.refs} refs, ${c.dagCommits} DAG commits, ${c.nodes} nodes, ${c.sessions} sessions, ${c.contextCommits} context commits, ` +
            `${c.items} items, ${c.summaries} summaries, ${c.origins} origins checked${report.recorded ? `; recorded ${report.token ?? ''}` : ''}`,
          ...report.issues.map((i) => `  ${i.severity} ${i.code} ${i.path}: ${i.message}`),
        ].join('\n'),
      });
      if (!report.ok) {
        const first = errors[0];
        throw new CliError('E_CLI_VERIFY_FAILED', `${errors.length} errors found${first === undefined ? '' : `, first ${first.code} at ${first.path}`}`, { errors: errors.length });
      }
    });
}
