import { Command, Option } from 'commander';
import { commitStats } from '../commit-stats.js';
import type { CliIo } from '../io.js';
import { openExisting } from '../open-repository.js';
import type { CommonOptions } from '../options.js';
import { repoPath, withCommon } from '../options.js';
import { emit, table } from '../output.js';
import type { RenderArgs } from '../render-args.js';
import { renderOptions, withRenderOptions } from '../render-args.js';
import { resolveSession } from '../resolve-session.js';
import { sessionCommits } from '../session-commits.js';
import { statesText } from '../states.js';

interface StatsOptions extends CommonOptions, RenderArgs {
  readonly session?: string;
}

const pct = (x: number | null): string => (x === null ? '-' : `${(100 * x).toFixed(1)}%`);

/** The `stats` command: per-commit tokens, states, occupancy and prefix stability. */
export function statsCommand(io: CliIo): Command {
  return withRenderOptions(
    withCommon(
      new Command('stats')
        .description(
          'Per commit of a session, oldest first: tokens the full history would cost, tokens ctxgit feeds, occupancy of the window, ' +
            "item states, and the share of the previous request that stays a byte-identical (cacheable) prefix of this one's.",
        )
        .addOption(new Option('--session <name>', 'the session (default: the only session of the repository)')),
    ),
    false,
    false,
  )
    .addHelpText(
      'after',
      '\nJSON (--json): { "session", "provider", "commits": [{ "id", "headNodeId", "totalTokens", "fullTokens", "window", "occupancy",\n' +
        '"states", "summary": { "added", "aged", "cleared", "folded", "firstChangedIndex" }, "capped", "cappedItems", "prefixMessages", "prefixShare" }], "totals": { "commits", "fullTokens", "totalTokens", "saved", "meanPrefixShare" } }',
    )
    .action(async (opts: StatsOptions) => {
      const repo = await openExisting(repoPath(io, opts));
      const session = await resolveSession(repo, opts.session);
      const commits = await commitStats(repo, await sessionCommits(repo, session), { ...renderOptions(opts), allowAssistantLast: true });
      const fullTokens = commits.reduce((n, c) => n + c.fullTokens, 0);
      const totalTokens = commits.reduce((n, c) => n + c.totalTokens, 0);
      const shares = commits.flatMap((c) => (c.prefixShare === null ? [] : [c.prefixShare]));
      const meanPrefixShare = shares.length === 0 ? null : Math.round((10_000 * shares.reduce((a, b) => a + b, 0)) / shares.length) / 10_000;
      const totals = { commits: commits.length, fullTokens, totalTokens, saved: fullTokens - totalTokens, meanPrefixShare };
      const rows = commits.map((c, i) => [String(i + 1), c.id.slice(0, 12), String(c.fullTokens), String(c.totalTokens), pct(c.occupancy), pct(c.prefixShare), statesText(c.states)]);
      emit(io, opts, {
        json: { session, provider: opts.provider, commits, totals },
        text: [
          table([['#', 'commit', 'full', 'fed', 'window', 'prefix', 'items'], ...rows]),
          `total: ${totalTokens} tokens fed for ${fullTokens} of full history (${fullTokens === 0 ? 0 : Math.round((100 * (fullTokens - totalTokens)) / fullTokens)}% saved), mean cacheable prefix ${pct(meanPrefixShare)}`,
        ].join('\n'),
      });
    });
}
