import type { ContextItem } from '../src/index.js';
import type { Json, Node } from '@ctxgit/dag';
import type { Tokenizer } from '@ctxgit/tokenize';

/** Deterministic test tokenizer: one token per 4 characters, rounded up. */
export const quarterTokenizer: Tokenizer = {
  encoding: 'quarter',
  estimated: true,
  count: (text: string) => Math.ceil(text.length / 4),
};

export const MIN = 60_000;

/** Builds nodes of one session with consecutive seq numbers; tool nodes hang under the last assistant. */
export class NodeBuilder {
  private seq = 0;
  private last: string | undefined;
  private lastAssistant: string | undefined;
  readonly nodes: Node[] = [];
  constructor(private readonly session = 's', private readonly prefix = 'n') {}

  private push(node: Omit<Node, 'id' | 'session' | 'seq'> & { id?: string }): Node {
    const seq = ++this.seq;
    const n: Node = { ...node, id: node.id ?? `${this.prefix}${seq}`, session: this.session, seq } as Node;
    this.nodes.push(n);
    return n;
  }

  text(role: 'system' | 'user' | 'assistant', output: string, createdAt = 0, metadata?: { [k: string]: Json }): Node {
    const n = this.push({ role, output, createdAt, ...(this.last !== undefined ? { predecessor: this.last } : {}), ...(metadata ? { metadata } : {}) });
    this.last = n.id;
    if (role === 'assistant') this.lastAssistant = n.id;
    return n;
  }

  tool(name: string, input: Json, output: string, createdAt = 0, metadata?: { [k: string]: Json }): Node {
    if (this.lastAssistant === undefined) throw new Error('tool before any assistant');
    return this.push({ role: 'tool', name, input, output, createdAt, caller: this.lastAssistant, ...(metadata ? { metadata } : {}) });
  }
}

/** The folds of a session's runs, kept by the caller (as a ContextCommit keeps them under its summaries). */
export class FoldStore {
  readonly #folds = new Map<string, readonly ContextItem[]>();
  /** Records the folds of one run; returns the run. */
  add<R extends { readonly folds: ReadonlyMap<string, readonly ContextItem[]> }>(r: R): R {
    for (const [k, v] of r.folds) this.#folds.set(k, v);
    return r;
  }
  /** The `foldedOf` lookup of a pipeline context. */
  readonly get = (key: string): readonly ContextItem[] | undefined => this.#folds.get(key);
  /** The live list with every summary followed by what it folded, nested: the list as one flat view. */
  flat(items: readonly ContextItem[]): ContextItem[] {
    const out: ContextItem[] = [];
    const walk = (it: ContextItem): void => {
      out.push(it);
      if (it.folded !== undefined) for (const c of this.#folds.get(it.key) ?? []) walk(c);
    };
    items.forEach(walk);
    return out;
  }
}
