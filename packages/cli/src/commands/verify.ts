import { Command, Option } from 'commander';
import { refLayout, verifyRepo } from '@ctxgit/commit';
import { recoverStaleLocks, removeTempObjects } from '@ctxgit/commit/git';
import { CliError } from '../errors.js';
import type { CliIo } from '../io.js';
import { openExisting } from '../open-repository.js';
import type { CommonOptions } from '../options.js';
import { repoPath, withCommon } from '../options.js';
import { emit } from '../output.js';

interface VerifyOptions extends CommonOptions {
  readonly record?: boolean;
  readonly previous?: string;
  readonly quick?: boolean;
  readonly repair?: boolean;
}

/** The `verify` command: `verifyRepo` of `@ctxgit/commit`, printed. */
export function verifyCommand(io: CliIo): Command {
  return withCommon(
    new Command('verify')
      .description(
        'Check the repository end to end: every ref points to an object of the right kind, every context commit\'s items hash to what ' +
          'its tree says and their origins are the DAG nodes byte for byte, every summary\'s originals exist, the DAG is readable, ' +
          `acyclic and its indexes exact, and it only grew since the previous verification (the token in ${refLayout.verified}).`,
      )
      .addOption(new Option('--record', `when the repository is sound, store the verified DAG commit in ${refLayout.verified}`))
      .addOption(new Option('--previous <token>', 'compare with this token of an earlier run instead of the recorded one'))
      .addOption(new Option('--quick', 'skip reading every object of every ref\'s whole history (checks the refs, the DAG and the context commits)'))
      .addOption(new Option('--repair', 'first remove what dead writers left: locks whose owner process died (or of another host, older than 10 minutes) and their temporary objects; never anything a live writer may need')),
  )
    .addHelpText('after', '\nExits 1 when an error is found (warnings do not fail). JSON (--json): { "ok", "issues": [{ "code", "severity", "path", "message" }], "counts", "token", "previous", "recorded" }')
    .action(async (opts: VerifyOptions) => {
      const repo = await openExisting(repoPath(io, opts));
      const repaired = opts.repair === true ? { locks: await recoverStaleLocks(repo.git), tempObjects: await removeTempObjects(repo.git) } : undefined;
      const report = await verifyRepo(repo, {
        ...(opts.record === true ? { record: true } : {}),
        ...(opts.previous === undefined ? {} : { previous: opts.previous }),
        ...(opts.quick === true ? { quick: true } : {}),
      });
      const c = report.counts;
      const errors = report.issues.filter((i) => i.severity === 'error');
      emit(io, opts, {
        json: repaired === undefined ? report : { ...report, repaired },
        text: [
          ...(repaired === undefined ? [] : [`repaired: ${repaired.locks.length} dead writers' locks, ${repaired.tempObjects.length} temporary objects removed`]),
          `${report.ok ? 'ok' : 'FAILED'}: ${c.refs} refs, ${c.dagCommits} DAG commits, ${c.nodes} nodes, ${c.sessions} sessions, ${c.contextCommits} context commits, ` +
            `${c.items} items, ${c.summaries} summaries, ${c.origins} origins, ${c.objects} objects checked${report.recorded ? `; recorded ${report.token ?? ''}` : ''}`,
          ...report.issues.map((i) => `  ${i.severity} ${i.code} ${i.path}: ${i.message}`),
        ].join('\n'),
      });
      if (!report.ok) {
        const first = errors[0];
        throw new CliError('E_CLI_VERIFY_FAILED', `${errors.length} errors found${first === undefined ? '' : `, first ${first.code} at ${first.path}`}`, { errors: errors.length });
      }
    });
}
