import { createHash } from 'node:crypto';
import type { Node } from '@ctxgit/dag';
import { foldedOriginals } from '@ctxgit/rules';
import { canonicalJson } from './canonical-json.js';
import { UnknownItemError, VerificationError } from './errors.js';
import type { ExpandedOriginal, ExpandedSummary } from './expanded-summary.js';
import { readBlob } from './git/read-blob.js';
import type { RepoCore } from './repo-core.js';
import type { StoredCommit } from './stored-commit.js';

function blobOid(bytes: Uint8Array): string {
  return createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex');
}

/**
 * The originals a summary folded (through the summaries it absorbed), read from the DAG by the blob oids recorded
 * with them; every blob is re-hashed and compared with the DAG store's copy of the node.
 */
export async function expandSummary(core: RepoCore, stored: StoredCommit, key: string): Promise<ExpandedSummary> {
  const entry = stored.entries.get(key);
  if (entry === undefined) throw new UnknownItemError(key, stored.commit.id, 'no item with this key');
  if (entry.item.state !== 'summary' && entry.item.folded === undefined) throw new UnknownItemError(key, stored.commit.id, `it is ${entry.item.state}, not a summary`);
  const items = stored.commit.items;
  const keys = entry.item.folded === undefined ? items.filter((it) => it.mergedInto === key).map((it) => it.key) : foldedOriginals(items, key).map((it) => it.key);
  const originals: ExpandedOriginal[] = [];
  for (const k of keys) {
    const folded = stored.entries.get(k);
    if (folded === undefined || folded.origin === undefined) throw new UnknownItemError(k, stored.commit.id, `folded by ${key} but without a recorded original`);
    const bytes = await readBlob(core.git, folded.origin);
    const actual = blobOid(bytes);
    const nodeId = folded.item.attachedFrom === folded.item.key ? folded.item.key : folded.item.sourceNodeId;
    if (actual !== folded.origin) throw new VerificationError(nodeId, folded.origin, actual);
    const text = new TextDecoder().decode(bytes);
    const node = JSON.parse(text) as Node;
    const current = typeof node.session === 'string' ? await core.store.nodeIn(node.session, node.id) : undefined;
    const currentOid = current === undefined ? 'missing' : blobOid(new TextEncoder().encode(canonicalJson(current)));
    if (currentOid !== folded.origin) throw new VerificationError(node.id, folded.origin, currentOid);
    originals.push({ key: k, oid: folded.origin, node, text });
  }
  return { key, commit: stored.commit.id, originals };
}
