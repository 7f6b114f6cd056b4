import type { EvalResult } from '../eval/eval-result.js';

/** What identifies a run: the code, the data and the machine it measured. */
export interface RunStamp {
  /** `git rev-parse HEAD` when the run started, or `uncommitted` when there is no commit. */
  readonly commit: string;
  /** True when the working tree differed from the commit (`git status --porcelain` not empty) at the start or the end, or HEAD moved during the run. */
  readonly dirty: boolean;
  /** sha256 over the bytes of every corpus file, concatenated in sorted relative-path order. */
  readonly corpusDigest: string;
  readonly corpusFiles: number;
  readonly node: string;
  readonly platform: string;
  readonly cpu: string;
  readonly cores: number;
  /** `os.loadavg()` when the run started (1, 5, 15 minutes): timings from a busy machine are slower. */
  readonly loadAverage: readonly number[];
  /** ISO date of the start of the run. */
  readonly date: string;
  readonly quick: boolean;
  readonly durationMs: number;
}

/**
 * One per-topic benchmark: its JSON result, or why it failed; `stamp` when it was measured by another run than the
 * one of the file's stamp (a topic rerun on its own and merged in).
 */
export type TopicOutcome = (
  | { readonly ok: true; readonly durationMs: number; readonly result: unknown }
  | { readonly ok: false; readonly durationMs: number; readonly error: string }
) & { readonly stamp?: RunStamp };

/** The whole of `bench/results/latest.json`. */
export interface BenchResults {
  readonly schema: 1;
  readonly stamp: RunStamp;
  /** Per topic (`dag`, `tokenize`, `graph`, `render`, `git`, `commit`), in run order. */
  readonly topics: Readonly<Record<string, TopicOutcome>>;
  readonly evaluation: { readonly ok: true; readonly durationMs: number; readonly result: EvalResult } | { readonly ok: false; readonly durationMs: number; readonly error: string };
}
