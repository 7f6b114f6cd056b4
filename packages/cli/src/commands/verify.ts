import { Command } from 'commander';
import { CliError } from '../errors.js';
import type { CliIo } from '../io.js';
import { openExisting } from '../open-repository.js';
import type { CommonOptions } from '../options.js';
import { repoPath, withCommon } from '../options.js';
import { emit } from '../output.js';
import { verifyRepository } from '../verify-repository.js';

/** The `verify` command: checks a repository end to end. */
export function verifyCommand(io: CliIo): Command {
  return withCommon(
    new Command('verify').description(
      'Check the repository end to end: every ref points to an object, every context commit reads back, every summary expands to ' +
        'originals that hash to their recorded git ids, and each session head walks back to a root through stored nodes without a cycle.',
    ),
  )
    .addHelpText('after', '\nExits 1 when a problem is found. JSON (--json): { "ok", "checked": { "refs", "commits", "summaries", "nodes" }, "problems": [] }')
    .action(async (opts: CommonOptions) => {
      const report = await verifyRepository(await openExisting(repoPath(io, opts)));
      const c = report.checked;
      emit(io, opts, {
        json: report,
        text: [`${report.ok ? 'ok' : 'FAILED'}: ${c.refs} refs, ${c.commits} commits, ${c.summaries} summaries, ${c.nodes} nodes checked`, ...report.problems.map((p) => `  ${p}`)].join('\n'),
      });
      if (!report.ok) throw new CliError('E_CLI_VERIFY_FAILED', `${report.problems.length} problems found: ${report.problems[0] ?? ''}`, { problems: report.problems.length });
    });
}
