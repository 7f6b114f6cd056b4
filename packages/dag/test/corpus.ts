import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MemoryNodeStore, branchView, writeTranscript, type Node, type NodeStore, type Transcript } from '@ctxgit/dag';

/** The shared corpus, beside the repository. */
export const CORPUS = fileURLToPath(new URL('../../../../shared/corpus/', import.meta.url));

/** Files of one corpus folder with the given extension, sorted. */
export function corpusFiles(folder: string, ext: string): string[] {
  return readdirSync(join(CORPUS, folder))
    .filter((f) => f.endsWith(ext))
    .sort();
}

/** Text of a corpus file. */
export function readCorpus(folder: string, file: string): string {
  return readFileSync(join(CORPUS, folder, file), 'utf8');
}

/** Every node reachable in a session from its roots, through children and callees. */
export async function allNodes(store: NodeStore, session: string): Promise<Node[]> {
  const out: Node[] = [];
  const stack = [...(await store.rootsOf(session))];
  while (stack.length > 0) {
    const id = stack.pop() ?? '';
    const n = await store.getNode(id);
    if (n !== undefined) out.push(n);
    stack.push(...(await store.childrenOf(id)), ...(await store.calleesOf(id)));
  }
  return out.sort((a, b) => a.seq - b.seq);
}

/** Writes a transcript into a fresh store; returns the stored nodes and the branch view of HEAD. */
export async function store(t: Transcript, session = 'imported'): Promise<{ nodes: Node[]; view: Node[]; head: string | null }> {
  const s = new MemoryNodeStore();
  const w = await writeTranscript(s, session, t, { clock: () => 0 });
  const nodes = await allNodes(s, session);
  const view = w.session.head === null ? [] : await branchView(s, w.session.head);
  return { nodes, view, head: w.session.head };
}
