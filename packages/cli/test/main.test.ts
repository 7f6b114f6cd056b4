// main() itself: never throws, maps errors to exit codes, writes only through the injected streams.
import { describe, expect, it } from 'vitest';
import { CliError, main } from '../src/index.js';
import { run } from './helpers.js';

describe('main', () => {
  it('prints help with exit 0, and the command list', async () => {
    const r = await run(['--help']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/^Usage: ctxgit \[options\] \[command\]/);
    expect(r.stdout).toContain('Every command takes --repo <dir> (default $CTXGIT_REPO, else ./.ctxgit) and --json.');
  });

  it('shows help on stderr with exit 1 when no command is given', async () => {
    const r = await run([]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^Usage: ctxgit/);
  });

  it('suggests a close command name on a typo', async () => {
    const r = await run(['sesions']);
    expect(r).toEqual({ code: 2, stdout: '', stderr: "ctxgit: unknown command 'sesions' (Did you mean sessions?) [E_CLI_USAGE]\n" });
  });

  it('writes only to the injected streams', async () => {
    const out: string[] = [];
    const code = await main(['--version'], { stdout: { write: (s: string) => out.push(s) }, stderr: { write: () => true }, cwd: '/', env: {} });
    expect(code).toBe(0);
    expect(out).toEqual(['0.1.0\n']);
  });

  it('CliError carries a stable code, data and exit code', () => {
    const e = new CliError('E_CLI_USAGE', 'bad', { option: '--x' }, { exitCode: 2 });
    expect([e.name, e.code, e.data, e.exitCode, e.message]).toEqual(['CliError', 'E_CLI_USAGE', { option: '--x' }, 2, 'bad']);
    expect(new CliError('E_CLI_NO_REPO', 'x').exitCode).toBe(1);
  });
});
