import { Command, Option } from 'commander';
import type { CliIo } from '../io.js';
import { openExisting } from '../open-repository.js';
import type { CommonOptions } from '../options.js';
import { repoPath, withCommon } from '../options.js';
import { emit } from '../output.js';
import { resolveSession } from '../resolve-session.js';

interface ExpandOptions extends CommonOptions {
  readonly session?: string;
  readonly commit?: string;
}

/** The `expand` command: the originals a summary folded, verified against their git ids. */
export function expandCommand(io: CliIo): Command {
  return withCommon(
    new Command('expand')
      .description('Print the original nodes a summary item folded, byte for byte from the DAG, each verified against the git blob id recorded when it entered the context.')
      .argument('<summary>', 'key of a summary item (`ctxgit show <commit>` lists keys)')
      .addOption(new Option('--session <name>', 'the session (default: the only session of the repository)'))
      .addOption(new Option('--commit <id>', "read the summary from this commit (default: the session's latest)")),
  )
    .addHelpText('after', '\nJSON (--json): { "key", "commit", "originals": [{ "key", "oid", "node" }] }')
    .action(async (key: string, opts: ExpandOptions) => {
      const repo = await openExisting(repoPath(io, opts));
      const s = await repo.openSession(await resolveSession(repo, opts.session));
      const x = await s.expand(key, opts.commit === undefined ? {} : { commit: opts.commit });
      const text = [
        `summary ${x.key} of commit ${x.commit}: ${x.originals.length} originals`,
        ...x.originals.map((o) => `\n--- ${o.key} (${o.node.role}${o.node.name === undefined ? '' : ` ${o.node.name}`}, blob ${o.oid})\n${o.node.output}`),
      ].join('\n');
      emit(io, opts, { json: x, text });
    });
}
