import { Command } from 'commander';
import type { CliIo } from '../io.js';
import { openExisting } from '../open-repository.js';
import type { CommonOptions } from '../options.js';
import { repoPath, withCommon } from '../options.js';
import { emit } from '../output.js';

/** The `gc` command: `repo.gc()` of `@ctxgit/commit`, printed. */
export function gcCommand(io: CliIo): Command {
  return withCommon(
    new Command('gc').description(
      'Pack the repository now: every loose object and every pack into one pack, with deltas, readable by plain git. ' +
        'Writes already pack themselves (one pack per write, rolled up geometrically); this reaches the smallest size at once.',
    ),
  )
    .addHelpText('after', '\nJSON (--json): { "packsMerged", "looseMerged", "objects", "packs" }')
    .action(async (opts: CommonOptions) => {
      const repo = await openExisting(repoPath(io, opts));
      const r = await repo.gc();
      emit(io, opts, { json: r, text: `packed ${r.objects} objects (${r.looseMerged} loose, ${r.packsMerged} packs merged); ${r.packs} pack${r.packs === 1 ? '' : 's'}` });
    });
}
