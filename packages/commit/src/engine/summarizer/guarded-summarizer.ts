import type { Node } from '@ctxgit/dag';
import type { ContextItem, SummarizeInput, Summarizer } from '@ctxgit/rules';
import type { SessionSummarizer, SummarizerFallback } from './session-summarizer.js';

/** Default of {@link SessionSummarizer.timeoutMs}. */
export const SUMMARIZER_TIMEOUT_MS = 60_000;
/** Default of {@link SessionSummarizer.maxBytes}. */
export const SUMMARIZER_MAX_BYTES = 4096;

const encoder = new TextEncoder();

/** The pipeline's view of a session summarizer for one commit: it never throws, and it remembers what fell back. */
export class GuardedSummarizer implements Summarizer {
  readonly name: string;
  readonly #plugin: SessionSummarizer;
  readonly #readNode: (id: string) => Promise<Node | undefined>;
  readonly #fallbacks: SummarizerFallback[] = [];
  /** Keys of the summaries whose text was handed to the pipeline. */
  readonly #answered = new Set<string>();

  constructor(plugin: SessionSummarizer, readNode: (id: string) => Promise<Node | undefined>) {
    this.#plugin = plugin;
    this.#readNode = readNode;
    this.name = plugin.name;
  }

  async summarize(input: SummarizeInput): Promise<string | undefined> {
    const timeoutMs = this.#plugin.timeoutMs ?? SUMMARIZER_TIMEOUT_MS;
    const maxBytes = this.#plugin.maxBytes ?? SUMMARIZER_MAX_BYTES;
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), timeoutMs);
    });
    let text: unknown;
    try {
      const nodes: Node[] = [];
      for (const it of input.items) {
        const node = await this.#readNode(it.sourceNodeId).catch(() => undefined);
        if (node !== undefined) nodes.push(node);
      }
      text = await Promise.race([this.#plugin.summarize({ ...input, nodes }, controller.signal), timeout]);
    } catch (err) {
      return this.#fallBack(input.key, 'threw', err instanceof Error ? `${err.name}: ${err.message}` : String(err));
    } finally {
      clearTimeout(timer);
    }
    if (text === 'timeout') {
      controller.abort();
      return this.#fallBack(input.key, 'timeout', `no answer within ${timeoutMs} ms`);
    }
    if (typeof text !== 'string' || text.trim() === '') return this.#fallBack(input.key, 'not_text', `resolved to ${typeof text === 'string' ? 'a blank string' : typeof text}`);
    const bytes = encoder.encode(text).length;
    if (bytes > maxBytes) return this.#fallBack(input.key, 'over_allowance', `${bytes} bytes, the allowance is ${maxBytes}`);
    this.#answered.add(input.key);
    return text;
  }

  /**
   * Every summary of `items` that kept its brief on this run: those the plugin failed, and those whose text the
   * pipeline refused (over the emergency mark).
   */
  fallbacks(items: readonly ContextItem[]): SummarizerFallback[] {
    const out = [...this.#fallbacks];
    for (const it of items) {
      if (it.state === 'summary' && this.#answered.has(it.key) && it.reason !== `summarizer:${this.name}`) {
        out.push({ key: it.key, reason: 'over_budget', detail: 'the text would put the history above the emergency mark' });
      }
    }
    return out;
  }

  #fallBack(key: string, reason: SummarizerFallback['reason'], detail: string): undefined {
    this.#fallbacks.push({ key, reason, detail: detail.replace(/\s+/g, ' ').slice(0, 200) });
    return undefined;
  }
}
