import { appendAttach, appendNode } from '@ctxgit/dag';
import { dagWrite } from './conflict.js';
import type { ContextCommit } from '../store/context-commit.js';
import { ensureLatestCommit } from './ensure-latest-commit.js';
import { EmptySessionError, InvalidMergeError, SelfMergeError } from '../errors.js';
import { readRef } from '../git/read-ref.js';
import { validateRefComponent } from '../git/validate-ref-name.js';
import { mergedRef } from '../store/refs.js';
import type { RepoCore } from '../store/repo-core.js';
import type { SessionOptions } from './session-options.js';
import type { SessionSettings } from './session-settings.js';
import { swapRef } from '../store/swap-ref.js';

/** Options of {@link Repo.merge}; the {@link SessionOptions} apply to the target and the peers. */
export interface MergeOptions extends SessionOptions {
  /** The session that receives the merge. */
  readonly target: string;
  /** The sessions merged in, in order; each gets one attach pointer. */
  readonly peers: readonly string[];
  /** Text of a `user` node appended after the pointers. @defaultValue none */
  readonly instruction?: string;
  /** The peer whose block is locked. @defaultValue `peers[0]` */
  readonly base?: string;
}

/** Validates everything, then writes the pointers, the instruction, the merge commit and the peers' `merged` refs. */
export async function mergeSessions(core: RepoCore, options: MergeOptions, open: (name: string) => Promise<SessionSettings>): Promise<ContextCommit> {
  if (typeof options !== 'object' || options === null) throw new InvalidMergeError('expected { target, peers }', {});
  let opts: MergeOptions;
  try {
    opts = Array.isArray(options.peers) ? { ...options, peers: Array.from(options.peers as unknown[]) as string[] } : options;
  } catch {
    throw new InvalidMergeError('peers is unreadable (a getter or a proxy threw); pass an array of session names', {});
  }
  validateRefComponent(opts.target, 'session');
  if (!Array.isArray(opts.peers) || opts.peers.length === 0) throw new InvalidMergeError('name at least one peer', { target: opts.target });
  for (const p of opts.peers) validateRefComponent(p, 'session');
  if (opts.peers.includes(opts.target)) throw new SelfMergeError(opts.target);
  if (new Set(opts.peers).size !== opts.peers.length) throw new InvalidMergeError('a peer is named twice', { peers: [...opts.peers] });
  const base = opts.base ?? opts.peers[0];
  if (base === undefined || !opts.peers.includes(base)) throw new InvalidMergeError(`the base ${typeof base === "string" ? base : `(a ${typeof base})`} is not a peer`, { base: typeof base === "string" ? base : null });
  if (opts.instruction !== undefined && typeof opts.instruction !== 'string') throw new InvalidMergeError('the instruction must be a string', {});
  const target = await open(opts.target);
  const peers = await Promise.all(opts.peers.map((p) => open(p)));
  for (const p of peers) if ((await core.store.getSession(p.name))?.head == null) throw new EmptySessionError(p.name);
  const targetRec = await core.store.getSession(target.name);
  if (targetRec?.head != null) await ensureLatestCommit(core, target);
  const terminals: ContextCommit[] = [];
  for (const p of peers) terminals.push((await ensureLatestCommit(core, p)).commit);
  const dag = { clock: target.clock, ...(target.ids === undefined ? {} : { ids: target.ids }) };
  for (const [i, p] of peers.entries()) {
    const c = terminals[i] as ContextCommit;
    await dagWrite(target.name, 'merge', () =>
      appendAttach(core.store.forSession(target.name, [p.name], target.lastTime), target.name, { session: p.name, head: c.headNodeId, commit: c.id }, {
        ...dag,
        output: `[merged session ${p.name} at commit ${c.id}]`,
        metadata: { merge: { base: p.name === base } },
      }),
    );
  }
  if (opts.instruction !== undefined) {
    const text = opts.instruction;
    await dagWrite(target.name, 'merge', () => appendNode(core.store.forSession(target.name, [], target.lastTime), target.name, { role: 'user', output: text }, dag));
  }
  const merged = (await ensureLatestCommit(core, target)).commit;
  for (const p of peers) await swapRef(core, p.name, mergedRef(p.name), await readRef(core.git, mergedRef(p.name)), merged.id);
  return merged;
}
