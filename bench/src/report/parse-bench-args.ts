import { TOPICS } from './run-bench.js';

/** The parsed command line of `pnpm bench`. */
export interface BenchArgs {
  readonly quick: boolean;
  /** `undefined`: all topics; `[]`: none. */
  readonly topics?: readonly string[];
  readonly evaluation: boolean;
  readonly sample?: number;
  readonly outDir?: string;
}

/**
 * Parses `--quick`, `--topics a,b|none`, `--no-eval`, `--sample N`, `--out-dir DIR`.
 * @throws Error naming the argument when one is unknown or malformed
 * @example
 * ```ts
 * parseBenchArgs(['--quick', '--topics', 'dag,render']); // { quick: true, topics: ['dag', 'render'], evaluation: true }
 * ```
 */
export function parseBenchArgs(argv: readonly string[]): BenchArgs {
  let quick = false;
  let evaluation = true;
  let topics: string[] | undefined;
  let sample: number | undefined;
  let outDir: string | undefined;
  const value = (i: number, flag: string): string => {
    const v = argv[i + 1];
    if (v === undefined || v.startsWith('--')) throw new Error(`${flag} needs a value`);
    return v;
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--') continue;
    if (arg === '--quick') quick = true;
    else if (arg === '--no-eval') evaluation = false;
    else if (arg === '--topics') {
      const v = value(i++, arg);
      topics = v === 'none' ? [] : v.split(',').filter((t) => t !== '');
      const unknown = topics.filter((t) => !TOPICS.includes(t));
      if (unknown.length > 0) throw new Error(`--topics: unknown topic ${unknown.join(', ')} (known: ${TOPICS.join(', ')}, or none)`);
    } else if (arg === '--sample') {
      const n = Number(value(i++, arg));
      if (!Number.isInteger(n) || n < 1) throw new Error(`--sample needs a positive integer`);
      sample = n;
    } else if (arg === '--out-dir') outDir = value(i++, arg);
    else throw new Error(`unknown argument ${arg} (use --quick, --topics a,b|none, --no-eval, --sample N, --out-dir DIR)`);
  }
  return { quick, evaluation, ...(topics === undefined ? {} : { topics }), ...(sample === undefined ? {} : { sample }), ...(outDir === undefined ? {} : { outDir }) };
}
