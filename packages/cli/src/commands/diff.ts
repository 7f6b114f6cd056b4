import { Command } from 'commander';
import type { ContextItem } from '@ctxgit/rules';
import { readCommitArg } from '../commit-id.js';
import type { CliIo } from '../io.js';
import { openExisting } from '../open-repository.js';
import type { CommonOptions } from '../options.js';
import { repoPath, withCommon } from '../options.js';
import { emit, table } from '../output.js';

/** One item that differs between two commits. */
interface ItemChange {
  readonly key: string;
  readonly role: string;
  /** State in the first commit; null when the item is new. */
  readonly from: string | null;
  /** State in the second commit; null when the item is gone. */
  readonly to: string | null;
  readonly tokensFrom: number | null;
  readonly tokensTo: number | null;
  /** Why the item is in its new state (the rule's reason). */
  readonly reason: string;
}

/** The `diff` command: which items changed state between two commits, and why. */
export function diffCommand(io: CliIo): Command {
  return withCommon(
    new Command('diff')
      .description('Compare two commits item by item: items added, removed, or whose state or content changed, with the reason the rules gave.')
      .argument('<a>', 'older commit id (or unique prefix)')
      .argument('<b>', 'newer commit id (or unique prefix)'),
  )
    .addHelpText('after', '\nJSON (--json): { "a", "b", "tokens": [a, b], "changes": [{ "key", "role", "from", "to", "tokensFrom", "tokensTo", "reason" }] }')
    .action(async (a: string, b: string, opts: CommonOptions) => {
      const repo = await openExisting(repoPath(io, opts));
      const ca = await readCommitArg(repo, a);
      const cb = await readCommitArg(repo, b);
      const changes = itemChanges(ca.items, cb.items);
      const rows = changes.map((c) => [c.key, c.role, `${c.from ?? '(none)'} -> ${c.to ?? '(none)'}`, `${c.tokensFrom ?? 0} -> ${c.tokensTo ?? 0}`, c.reason]);
      emit(io, opts, {
        json: { a: ca.id, b: cb.id, tokens: [ca.totalTokens, cb.totalTokens], changes },
        text: [
          `${ca.id.slice(0, 12)} -> ${cb.id.slice(0, 12)}: ${ca.totalTokens} -> ${cb.totalTokens} tokens, ${changes.length} items changed`,
          ...(rows.length === 0 ? [] : [table([['key', 'role', 'state', 'tokens', 'reason'], ...rows])]),
        ].join('\n'),
      });
    });
}

const same = (x: ContextItem, y: ContextItem): boolean => x.state === y.state && x.tokens === y.tokens && JSON.stringify(x.blocks) === JSON.stringify(y.blocks);

/** Items of `b` that are new or differ from `a` (in `b`'s order), then items of `a` that `b` lacks. */
function itemChanges(a: readonly ContextItem[], b: readonly ContextItem[]): ItemChange[] {
  const before = new Map(a.map((it) => [it.key, it]));
  const after = new Set(b.map((it) => it.key));
  const out: ItemChange[] = [];
  for (const it of b) {
    const old = before.get(it.key);
    if (old !== undefined && same(old, it)) continue;
    out.push({ key: it.key, role: it.role, from: old?.state ?? null, to: it.state, tokensFrom: old?.tokens ?? null, tokensTo: it.tokens, reason: it.reason });
  }
  for (const it of a) {
    if (!after.has(it.key)) out.push({ key: it.key, role: it.role, from: it.state, to: null, tokensFrom: it.tokens, tokensTo: null, reason: 'not in the newer commit' });
  }
  return out;
}
