import { Command, Option } from 'commander';
import type { CliIo } from '../io.js';
import { openExisting } from '../open-repository.js';
import type { CommonOptions } from '../options.js';
import { repoPath, withCommon } from '../options.js';
import { emit } from '../output.js';
import { resolveSession } from '../resolve-session.js';
import { withDate, writeClock } from '../write-date.js';
import { resolveNode } from './checkout.js';

interface ForkOptions extends CommonOptions {
  readonly session?: string;
  readonly at?: string;
  readonly date?: number;
}

/** The `fork` command: branches a session into a new one. */
export function forkCommand(io: CliIo): Command {
  return withDate(withCommon(
    new Command('fork')
      .description('Branch a session into a new session whose head is a node of it (default: its head). No node is copied.')
      .argument('<name>', 'name of the new session')
      .addOption(new Option('--session <name>', 'the session to fork (default: the only session of the repository)'))
      .addOption(new Option('--at <node>', "fork point: a node id or a commit id (default: the session's head)")),
  ))
    .addHelpText('after', '\nJSON (--json): { "session", "from", "head" }')
    .action(async (name: string, opts: ForkOptions) => {
      const clock = writeClock(io, opts.date);
      const repo = await openExisting(repoPath(io, opts), clock);
      const s = await repo.openSession(await resolveSession(repo, opts.session));
      const at = opts.at === undefined ? undefined : await resolveNode(repo, opts.at);
      const forked = await s.fork(name, at === undefined ? {} : { at });
      const head = await forked.head();
      emit(io, opts, { json: { session: forked.name, from: s.name, head }, text: `forked ${s.name} into ${forked.name} at ${head ?? '(empty)'}` });
    });
}
