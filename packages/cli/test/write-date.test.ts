// The commands that write (checkout, fork, merge, fetch, clone) take --date and honour SOURCE_DATE_EPOCH: the same
// commands on the same inputs in two separate repositories write the same commits, ids included; a bad value is a
// typed error (E_CLI_BAD_DATE, exit 2) before anything is written.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CliError } from '../src/errors.js';
import { parseWriteDate, writeClock } from '../src/write-date.js';
import { run, SIMPLE_TRAJ, snapshot, tempDir } from './helpers.js';

const io = (env: Record<string, string>) => ({ stdout: { write: () => true }, stderr: { write: () => true }, cwd: '/', env });

async function ok<T>(args: readonly string[], env: Record<string, string> = {}): Promise<T> {
  const r = await run([...args, '--json'], { env });
  if (r.code !== 0) throw new Error(`ctxgit ${args.join(' ')} failed (${r.code}): ${r.stderr}`);
  return JSON.parse(r.stdout) as T;
}

/** Imports the trajectory, forks it, checks out an older node on the fork, merges the fork back: every id written. */
async function scenario(date: { args: string[]; env: Record<string, string> }): Promise<Record<string, unknown>> {
  const repo = join(tempDir('ctxgit-date-'), 'repo');
  const r = ['--repo', repo];
  await ok(['import', SIMPLE_TRAJ, '--format', 'swe-agent', '--session', 'main', '--no-fsync', ...r]);
  const log = await ok<{ id: string; headNodeId: string }[]>(['log', '--session', 'main', ...r]);
  const older = log[1]?.headNodeId ?? '';
  const fork = await ok<{ head: string }>(['fork', 'alt', '--session', 'main', '--at', older, ...date.args, ...r], date.env);
  const checkout = await ok<{ commit: string }>(['checkout', older, '--session', 'alt', ...date.args, ...r], date.env);
  const fork2 = await ok<{ head: string }>(['fork', 'peer', '--session', 'main', ...date.args, ...r], date.env);
  const merge = await ok<{ commit: string; parentIds: string[] }>(['merge', 'alt', 'peer', '--session', 'main', '--instruction', 'Combine both.', ...date.args, ...r], date.env);
  const shown = await ok<{ createdAt: number }>(['show', merge.commit, ...r]);
  return { fork: fork.head, checkout: checkout.commit, fork2: fork2.head, merge: merge.commit, parents: merge.parentIds, mergedAt: shown.createdAt };
}

describe('--date and SOURCE_DATE_EPOCH', () => {
  it('the same commands with the same date write the same commit ids in two repositories', async () => {
    const a = await scenario({ args: ['--date', '2026-01-01T00:00:00Z'], env: {} });
    const b = await scenario({ args: ['--date', '1767225600'], env: {} });
    const c = await scenario({ args: [], env: { SOURCE_DATE_EPOCH: '1767225600' } });
    expect(b).toEqual(a);
    expect(c).toEqual(a);
    expect(a['mergedAt']).toBe(Date.UTC(2026, 0, 1));
    // --date wins over SOURCE_DATE_EPOCH
    const d = await scenario({ args: ['--date', '2026-01-01'], env: { SOURCE_DATE_EPOCH: '1' } });
    expect(d).toEqual(a);
  });

  it('a bad --date or SOURCE_DATE_EPOCH is E_CLI_BAD_DATE, exit 2, and writes nothing', async () => {
    const dir = tempDir('ctxgit-date-');
    const repo = join(dir, 'repo');
    await ok(['import', SIMPLE_TRAJ, '--format', 'swe-agent', '--session', 'main', '--no-fsync', '--repo', repo]);
    await ok(['fork', 'alt', '--session', 'main', '--repo', repo]);
    const node = (await ok<{ headNodeId: string }[]>(['log', '--session', 'main', '--repo', repo]))[0]?.headNodeId ?? '';
    const cases: { args: string[]; env: Record<string, string> }[] = [
      { args: ['fork', 'x', '--session', 'main', '--date', 'tomorrow'], env: {} },
      { args: ['checkout', node, '--session', 'main', '--date', '2026-13-01'], env: {} },
      { args: ['merge', 'alt', '--session', 'main', '--date', '-5'], env: {} },
      { args: ['merge', 'alt', '--session', 'main'], env: { SOURCE_DATE_EPOCH: '2026-01-01' } },
      { args: ['fork', 'x', '--session', 'main'], env: { SOURCE_DATE_EPOCH: 'now' } },
      { args: ['clone', 'http://127.0.0.1:9/ctx.git', '--repo', join(dir, 'clone')], env: { SOURCE_DATE_EPOCH: '1.5' } },
    ];
    for (const c of cases) {
      const before = [snapshot(repo), snapshot(join(dir, 'clone'))];
      const r = await run([...c.args, ...(c.args.includes('--repo') ? [] : ['--repo', repo])], { env: c.env });
      expect({ args: c.args, code: r.code, stdout: r.stdout }).toEqual({ args: c.args, code: 2, stdout: '' });
      expect(r.stderr).toMatch(/^ctxgit: (--date|SOURCE_DATE_EPOCH) must be [^\n]+ \[E_CLI_BAD_DATE\]\n$/);
      expect([snapshot(repo), snapshot(join(dir, 'clone'))]).toEqual(before);
    }
  });

  it('parses seconds, @seconds and ISO 8601 dates; refuses the rest', () => {
    expect(parseWriteDate('0', '--date')).toBe(0);
    expect(parseWriteDate('@1767225600', '--date')).toBe(1_767_225_600_000);
    expect(parseWriteDate('2026-01-01', '--date')).toBe(Date.UTC(2026, 0, 1));
    expect(parseWriteDate('2026-01-01T01:00:00+01:00', '--date')).toBe(Date.UTC(2026, 0, 1));
    expect(parseWriteDate('2026-01-01 00:00:00.250', '--date')).toBe(Date.UTC(2026, 0, 1) + 250);
    for (const bad of ['', 'yesterday', '1e9', '2026-1-1', '2026-01-01T25:00Z', '-1']) {
      expect(() => parseWriteDate(bad, '--date'), bad).toThrow(CliError);
    }
    const err = (() => {
      try {
        parseWriteDate('soon', '--date');
      } catch (e) {
        return e as CliError;
      }
      return undefined;
    })();
    expect({ code: err?.code, exitCode: err?.exitCode, data: err?.data }).toEqual({ code: 'E_CLI_BAD_DATE', exitCode: 2, data: { source: '--date', value: 'soon' } });
    expect(writeClock(io({}), undefined)).toBeUndefined();
    expect(writeClock(io({ SOURCE_DATE_EPOCH: '' }), undefined)).toBeUndefined();
    expect(writeClock(io({ SOURCE_DATE_EPOCH: '10' }), undefined)?.()).toBe(10_000);
    expect(writeClock(io({ SOURCE_DATE_EPOCH: '10' }), 5)?.()).toBe(5);
  });
});
