import { Command } from 'commander';
import { readCommitArg } from '../commit-id.js';
import type { CliIo } from '../io.js';
import { openExisting } from '../open-repository.js';
import type { CommonOptions } from '../options.js';
import { repoPath, withCommon } from '../options.js';
import { emit } from '../output.js';
import type { RenderArgs } from '../render-args.js';
import { renderCommit, withRenderOptions } from '../render-args.js';

/** The `render` command: a commit as a provider request body. */
export function renderCommand(io: CliIo): Command {
  return withRenderOptions(
    withCommon(
      new Command('render')
        .description('Render a commit into the request body of a provider: exactly what the model is sent for that call (text: a readable view).')
        .argument('<commit>', 'commit id, or a unique prefix of 4+ hex digits'),
    ),
    true,
  )
    .addHelpText('after', '\nPrints the body as JSON (the text view as plain text; with --json as a JSON string).')
    .action(async (id: string, opts: CommonOptions & RenderArgs) => {
      const repo = await openExisting(repoPath(io, opts));
      const body = renderCommit(await readCommitArg(repo, id), opts);
      emit(io, opts, { json: body, text: typeof body === 'string' ? body : JSON.stringify(body, null, 2) });
    });
}
