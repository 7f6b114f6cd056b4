/** The value after `--name` in `argv` (a script's `process.argv.slice(2)`), or `fallback` when the flag is absent. */
export function scriptArg(argv: readonly string[], name: string, fallback: string): string;
export function scriptArg(argv: readonly string[], name: string): string | undefined;
export function scriptArg(argv: readonly string[], name: string, fallback?: string): string | undefined {
  const i = argv.indexOf(`--${name}`);
  return i < 0 ? fallback : (argv[i + 1] ?? fallback);
}
