import { Command, Option } from 'commander';
import type { CliIo } from '../io.js';
import { openExisting } from '../open-repository.js';
import type { CommonOptions } from '../options.js';
import { repoPath, withCommon } from '../options.js';
import { emit, table } from '../output.js';
import { resolveSession } from '../resolve-session.js';
import { allSessionCommits } from '../session-commits-all.js';
import { stateCounts, statesText } from '../states.js';

interface LogOptions extends CommonOptions {
  readonly session?: string;
  readonly all?: boolean;
}

/** The `log` command: a session's commits, oldest first. */
export function logCommand(io: CliIo): Command {
  return withCommon(
    new Command('log')
      .description(
        "Show a session's context commits, oldest first: those of the branch its head is on (the first-parent chain of its latest commit), " +
          'or with --all those of every branch (after a checkout, the branch left too).',
      )
      .addOption(new Option('--session <name>', 'the session (default: the only session of the repository)'))
      .addOption(new Option('--all', 'the commits of every branch of the session, oldest first; * marks those of the current branch')),
  )
    .addHelpText(
      'after',
      '\nJSON (--json): [{ "id", "parentIds", "headNodeId", "totalTokens", "states": { "full", "aged", "cleared", "summarized", "summary" } }], with --all also "onBranch"',
    )
    .action(async (opts: LogOptions) => {
      const repo = await openExisting(repoPath(io, opts));
      const s = await repo.openSession(await resolveSession(repo, opts.session));
      const branch = (await s.log()).reverse();
      const onBranch = new Set(branch.map((e) => e.id));
      const entries = opts.all === true ? await allSessionCommits(repo, s) : branch;
      const rows = [];
      for (const e of entries) {
        const c = await repo.readCommit(e.id);
        const json = { id: e.id, parentIds: [...e.parentIds], headNodeId: e.headNodeId, totalTokens: e.totalTokens, states: stateCounts(c.items, c.foldedItems) };
        rows.push({ entry: e, json: opts.all === true ? { ...json, onBranch: onBranch.has(e.id) } : json });
      }
      const head = await s.head();
      const which =
        opts.all === true
          ? `session ${s.name}: every branch (${rows.length} commits; * = the branch of head ${head?.slice(0, 12) ?? '(none)'})`
          : `session ${s.name}: the branch of head ${head?.slice(0, 12) ?? '(none)'} (${rows.length} commits; --all for every branch)`;
      const mark = (id: string): string => (opts.all === true && onBranch.has(id) ? '* ' : opts.all === true ? '  ' : '');
      emit(io, opts, {
        json: rows.map((r) => r.json),
        text:
          rows.length === 0
            ? `session ${s.name} has no commits`
            : `${which}\n${table([
                ['commit', 'turn', 'tokens', 'items', 'summary'],
                ...rows.map((r) => [`${mark(r.entry.id)}${r.entry.id.slice(0, 12)}`, String(r.entry.turn), String(r.entry.totalTokens), statesText(r.json.states), r.entry.message.split('\n')[0] ?? '']),
              ])}`,
      });
    });
}
