import { Command, CommanderError } from 'commander';
import { COMMANDS } from './commands/index.js';
import type { CliIo } from './io.js';
import { errorLine } from './report-error.js';

/** The version `ctxgit --version` prints. */
export const VERSION = '0.1.0';

/**
 * Runs the `ctxgit` command line in-process: parses `argv` (the arguments after the program name), runs the
 * command and writes to `io.stdout` / `io.stderr`. Never throws and never exits the process: every error
 * becomes one line on stderr, `ctxgit: <message> [<code>]`, and a non-zero exit code (2 for a usage error,
 * 1 otherwise). A failed command writes nothing to the repository: input is read and validated first.
 *
 * @param argv - Arguments, e.g. `['log', '--session', 'chat', '--json']`.
 * @param io - Streams, working directory and environment; see {@link CliIo}.
 * @returns The exit code: 0 on success.
 * @example
 * ```ts
 * const out: string[] = [];
 * const io = { stdout: { write: (s: string) => out.push(s) }, stderr: process.stderr, cwd: process.cwd(), env: {} };
 * const code = await main(['--version'], io);
 * ```
 */
export async function main(argv: readonly string[], io: CliIo): Promise<number> {
  const program = new Command('ctxgit')
    .description('Inspect and drive ctxgit repositories: what a model is fed on every call, stored as git commits.')
    .version(VERSION, '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show help')
    .helpCommand('help [command]', 'show help for a command')
    .showSuggestionAfterError(true)
    .exitOverride()
    .configureOutput({
      writeOut: (s) => io.stdout.write(s),
      writeErr: (s) => io.stderr.write(s),
      outputError: () => undefined,
      getOutHelpWidth: () => 100,
      getErrHelpWidth: () => 100,
    })
    .addHelpText(
      'after',
      '\nEvery command takes --repo <dir> (default $CTXGIT_REPO, else ./.ctxgit) and --json.\nRun `ctxgit <command> --help` for the options of a command.',
    );
  for (const make of COMMANDS) program.addCommand(make(io).copyInheritedSettings(program));
  try {
    await program.parseAsync([...argv], { from: 'user' });
    return 0;
  } catch (err) {
    if (err instanceof CommanderError) {
      if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || err.exitCode === 0) return 0;
      if (err.code === 'commander.help' || err.code === 'commander.executeSubCommandAsync') return err.exitCode;
      io.stderr.write(errorLine(err));
      return 2;
    }
    io.stderr.write(errorLine(err));
    return typeof (err as { exitCode?: unknown }).exitCode === 'number' ? ((err as { exitCode: number }).exitCode) : 1;
  }
}
