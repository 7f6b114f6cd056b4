import { InvalidArgumentError, MalformedTranscriptError, NotJsonError, type TranscriptLocation } from '../errors.js';
import type { NodeMetadata } from '../options.js';
import type { ImportOptions, MalformedItem, Transcript, TranscriptEntry, TranscriptFormat } from '../transcript.js';
import { validateJson } from '../validate-json.js';

/** Thrown inside a unit of import to say what is wrong with it; the builder adds the location. */
export class Problem extends Error {}

/** Throws a {@link Problem}. */
export function bad(reason: string): never {
  throw new Problem(reason);
}

/** Accumulates the entries, counts and malformed items of one transcript. */
export class TranscriptBuilder {
  readonly entries: TranscriptEntry[] = [];
  readonly skipped: Record<string, number> = {};
  readonly stats: Record<string, number> = {};
  readonly malformed: MalformedItem[] = [];
  readonly #mode: 'throw' | 'skip';

  constructor(
    readonly format: TranscriptFormat,
    opts: ImportOptions | undefined,
  ) {
    const mode = opts?.malformed ?? 'throw';
    if (mode !== 'throw' && mode !== 'skip') throw new InvalidArgumentError({ argument: 'opts.malformed', reason: `expected 'throw' or 'skip', got ${String(mode)}` });
    this.#mode = mode;
  }

  /** Runs one unit (a line or message); a problem in it throws, or under `'skip'` is recorded and gives `undefined`. */
  attempt<T>(loc: TranscriptLocation, fn: () => T): T | undefined {
    try {
      return fn();
    } catch (e) {
      const reason = e instanceof Problem ? e.message : e instanceof NotJsonError ? `${e.data.path} is not JSON: ${e.data.reason}` : undefined;
      if (reason === undefined) throw e;
      if (this.#mode === 'throw') throw new MalformedTranscriptError({ format: this.format, ...loc, reason }, { cause: e });
      this.malformed.push({ ...loc, reason });
      this.skip('malformed');
      return undefined;
    }
  }

  /** Adds an entry; returns its index. */
  add(entry: TranscriptEntry): number {
    this.entries.push(entry);
    return this.entries.length - 1;
  }

  skip(reason: string, n = 1): void {
    this.skipped[reason] = (this.skipped[reason] ?? 0) + n;
  }

  count(stat: string, n = 1): void {
    this.stats[stat] = (this.stats[stat] ?? 0) + n;
  }

  build(head: number | null, metadata: NodeMetadata, line?: number): Transcript {
    return {
      format: this.format,
      entries: this.entries,
      head,
      skipped: this.skipped,
      malformed: this.malformed,
      stats: this.stats,
      metadata: validateJson(metadata, 'metadata') as NodeMetadata,
      ...(line === undefined ? {} : { line }),
    };
  }
}
