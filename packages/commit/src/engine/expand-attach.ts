import type { AttachSource, Node } from '@ctxgit/dag';
import type { Block, ContextItem } from '@ctxgit/rules';
import { canonicalJson } from '@ctxgit/dag';
import { writeBlob } from '../git/write-blob.js';
import type { RepoCore } from '../store/repo-core.js';
import { loadCommit } from '../store/repo-core.js';
import type { StoredCommit } from '../store/stored-commit.js';

/** An attach pointer node's source and merge role, read from its metadata. */
export interface AttachPointer {
  readonly source: AttachSource;
  /** Set on the pointers a merge writes; `base` locks the block. */
  readonly merge?: { readonly base: boolean };
}

/** The attach metadata of a node, when it is a pointer. */
export function attachPointerOf(node: Node): AttachPointer | undefined {
  const a = node.metadata?.['attach'];
  if (typeof a !== 'object' || a === null || Array.isArray(a)) return undefined;
  const r = a as Record<string, unknown>;
  if (typeof r['session'] !== 'string' || typeof r['head'] !== 'string' || typeof r['commit'] !== 'string') return undefined;
  const m = node.metadata?.['merge'];
  const merge = typeof m === 'object' && m !== null && !Array.isArray(m) ? { base: (m as Record<string, unknown>)['base'] === true } : undefined;
  return { source: { session: r['session'], head: r['head'], commit: r['commit'] }, ...(merge === undefined ? {} : { merge }) };
}

/** The items an attach pointer expands to, their origins, and the loaded source commit (absent on fallback). */
export interface AttachExpansion {
  readonly items: readonly ContextItem[];
  readonly origins: ReadonlyMap<string, string>;
  readonly source?: StoredCommit;
}

/**
 * Expands a pointer: the visible items of the source commit whose nodes are not in `shared` (the nodes already on the
 * pointer's branch: a fork merged back brings only what it added since the common history), re-keyed `<pointer>~<key>`, `full`, with
 * `attachedFrom` = the pointer id (contiguous, so render wraps them in one open/close marker pair), tool call ids
 * prefixed so they cannot clash with the target's, locked only for the base peer of a merge. When the source
 * commit cannot be loaded, one `user` item stands in for it.
 */
export async function expandAttach(core: RepoCore, pointer: Node, attach: AttachPointer, shared: ReadonlySet<string> = new Set()): Promise<AttachExpansion> {
  const standIn = async (reason: string, code = 'attach_unavailable'): Promise<AttachExpansion> => {
    const item: ContextItem = {
      key: pointer.id,
      sourceNodeId: pointer.id,
      role: 'user',
      state: 'full',
      locked: false,
      blocks: [{ type: 'text', text: `${pointer.output}\n[${reason}]` }],
      tokens: 0,
      reason: code,
      attachedFrom: pointer.id,
      touchedAt: pointer.createdAt,
    };
    return { items: [item], origins: new Map([[pointer.id, await writeBlob(core.git, canonicalJson(pointer))]]) };
  };
  let source: StoredCommit;
  try {
    source = await loadCommit(core, attach.source.commit);
  } catch (err) {
    return standIn(`the attached context could not be loaded: ${err instanceof Error ? err.message : String(err)}`);
  }
  const prefix = `at${pointer.id.slice(0, 8)}_`;
  const rekey = (key: string): string => `${pointer.id}~${key}`;
  const items: ContextItem[] = [];
  const origins = new Map<string, string>();
  let sharedItems = 0;
  for (const it of source.commit.items) {
    if (it.state === 'summarized') continue;
    if (it.state !== 'summary' && shared.has(it.sourceNodeId)) {
      sharedItems++;
      continue;
    }
    const blocks: Block[] = it.blocks.map((b) =>
      b.type === 'tool_call' ? { ...b, id: prefix + b.id } : b.type === 'tool_result' ? { ...b, callId: prefix + b.callId } : b,
    );
    const item: ContextItem = {
      key: rekey(it.key),
      sourceNodeId: it.sourceNodeId,
      role: it.role,
      state: 'full',
      locked: attach.merge?.base === true,
      blocks,
      tokens: it.tokens,
      reason: `attached_from:${attach.source.session}`,
      attachedFrom: pointer.id,
      touchedAt: pointer.createdAt,
      ...(it.caller === undefined ? {} : { caller: rekey(it.caller) }),
      ...(it.outputChars === undefined ? {} : { outputChars: it.outputChars }),
    };
    items.push(item);
    const origin = source.entries.get(it.key)?.origin;
    if (origin !== undefined) origins.set(item.key, origin);
  }
  if (items.length === 0 && sharedItems > 0) return { ...(await standIn(`nothing new: every item of commit ${source.commit.id} is already on this branch`, 'attach_nothing_new')), source };
  if (items.length === 0) return standIn(`the attached context could not be loaded: commit ${source.commit.id} holds no visible item`);
  return { items, origins, source };
}
