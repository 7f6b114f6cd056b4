// Runs every shell block (```sh, ```bash, ```shell) of README.md, docs/*.md and examples/**/README.md as written, line
// by line, the way a new user pastes them on a fresh machine: with a PATH that holds node and the system tools but no
// pnpm, and `npx ctxgit` for the CLI (which must be built: `npm test` builds before it runs vitest). Each file's blocks
// run in order in one temporary copy of the repository (<tmp>/repo: a link to each top-level entry), next to <tmp>/shared (the corpus the commands name as ../shared/corpus), so that
// nothing a command writes lands in the working tree; a file whose blocks run an npm script (`npm run demo`) runs in
// the clone itself, since pnpm checks its install against the workspace. What the test fills in, and nothing else:
// - `/tmp/ctx.git` becomes `<tmp>/ctx.git`, a directory of this run;
// - `<commit>` becomes the newest commit `npx ctxgit log --json` lists for the line's `--repo`;
// - a line of `ctxgit serve` runs until it prints its URL; the URL must answer 200, then the server is stopped.
// Any other `<placeholder>` fails the test: write the command so that it runs. A block that truly cannot run here
// (the whole test suite, minutes of work) has `<!-- not run: <reason> -->` on the line above its fence; the reason is
// required and such blocks are kept few. `sh no-run` is not accepted: use the comment. Inline commands in the prose
// (`npx ctxgit …` in backticks) are checked against the CLI's parser: each names a real command and real options.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { COMMANDS } from '../packages/cli/src/commands/index.js';
import { fencedBlocks } from './fenced-blocks.js';
import type { Sample } from './fenced-blocks.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const shared = resolve(root, '..', 'shared');
const PATH = [dirname(process.execPath), '/usr/local/bin', '/usr/bin', '/bin'].join(delimiter);
const onPath = (cmd: string): boolean => spawnSync('sh', ['-c', `command -v ${cmd}`], { env: { PATH } }).status === 0;
const cliBuilt = existsSync(join(root, 'packages', 'cli', 'dist', 'bin.js'));

/** README.md, docs/*.md and every README.md under examples/ (dependencies left out), relative to the root. */
function docFiles(): string[] {
  const examples = (dir: string): string[] =>
    readdirSync(join(root, dir), { withFileTypes: true }).flatMap((e) => {
      if (e.isDirectory()) return e.name === 'node_modules' || e.name.startsWith('.') ? [] : examples(join(dir, e.name));
      return e.name === 'README.md' ? [join(dir, e.name)] : [];
    });
  const docs = readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md')).map((f) => join('docs', f));
  return ['README.md', ...docs.sort(), ...examples('examples').sort()];
}

/** A shell block, with the reason it is not run when the line above its fence says `<!-- not run: reason -->`. */
interface ShellBlock extends Sample {
  readonly notRun?: string;
}

/**
 * Blocks of pages another program writes (the marker would be lost when it rewrites them), by file and the first line
 * of the block: why they are not run.
 */
const GENERATED_NOT_RUN: Readonly<Record<string, string>> = {
  'docs/reliability.md npm run reliability:full':
    'a page write-reliability-doc.ts generates; its block runs the reliability suites at full scale (many minutes), which run as their own tests',
};

function shellBlocks(file: string): ShellBlock[] {
  const text = readFileSync(join(root, file), 'utf8');
  const lines = text.split('\n');
  return fencedBlocks(text, file)
    .filter((b) => /^(sh|bash|shell)\b/.test(b.info))
    .map((b) => {
      const above = /^\s*<!--\s*not run:(.*?)-->\s*$/.exec(lines[b.line - 2] ?? '');
      const generated = GENERATED_NOT_RUN[`${file} ${b.code.split('\n')[0] ?? ''}`];
      if (generated !== undefined) return { ...b, notRun: generated };
      return above === null ? b : { ...b, notRun: (above[1] ?? '').trim() };
    });
}

const files = docFiles();
const blocks = new Map(files.map((f) => [f, shellBlocks(f)]));
const all = [...blocks.values()].flat();
const tmps: string[] = [];
afterAll(() => {
  for (const t of tmps) rmSync(t, { recursive: true, force: true });
});

/** A temporary copy of what the commands need: see the header. */
function workspace(): { tmp: string; cwd: string } {
  const tmp = mkdtempSync(join(tmpdir(), 'ctxgit-docs-shell-'));
  tmps.push(tmp);
  symlinkSync(realpathSync(shared), join(tmp, 'shared'));
  const cwd = join(tmp, 'repo');
  mkdirSync(cwd);
  for (const name of readdirSync(root)) {
    if (!['.git', '.demo', '.ctxgit', '.ctxgit-chat'].includes(name)) symlinkSync(join(root, name), join(cwd, name));
  }
  return { tmp, cwd };
}

/** The command part of a line (a trailing `# comment` left out). */
const command = (line: string): string => line.replace(/\s+#.*$/, '');

/** Runs a `ctxgit serve` line until it prints its URL, checks the URL answers 200, and stops it. */
async function serveOnce(shell: string, script: string, cwd: string, env: Record<string, string>): Promise<{ url: string; status: number }> {
  const child = spawn(shell, ['-c', script], { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  try {
    const url = await new Promise<string>((ok, fail) => {
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        const m = /ctxgit viewer on (http\S+)/.exec(out);
        if (m?.[1] !== undefined) ok(m[1]);
      });
      child.on('exit', (code) => fail(new Error(`serve exited (${String(code)}) before printing its URL: ${err}`)));
    });
    const res = await fetch(url);
    await res.arrayBuffer();
    return { url, status: res.status };
  } finally {
    if (child.pid !== undefined && child.exitCode === null) process.kill(-child.pid, 'SIGTERM');
  }
}

describe('shell blocks of README.md, docs/*.md and examples/**/README.md', () => {
  it('finds the blocks; each one that is not run says why', () => {
    expect(all.length).toBeGreaterThan(8);
    expect(all.filter((b) => /\bno-run\b/.test(b.info)).map((b) => `${b.file}:${b.line}`)).toEqual([]);
    const notRun = all.filter((b) => b.notRun !== undefined);
    for (const b of notRun) expect(b.notRun, `${b.file}:${b.line} needs a reason`).toMatch(/\w{3,}/);
    expect(notRun.length).toBeLessThanOrEqual(Math.ceil(all.length / 4));
  });

  for (const file of files.filter((f) => (blocks.get(f) ?? []).some((b) => b.notRun === undefined))) {
    it.skipIf(!onPath('git') || onPath('pnpm') || !cliBuilt || !existsSync(shared))(`${file}: every line exits 0, without pnpm on the PATH`, async () => {
      // npm scripts run in the clone itself: pnpm checks its install against the workspace, which a copy is not (and
      // would reinstall through the copy's links). `npm run demo` writes its own .demo/ there, as for a user.
      const runnable = (blocks.get(file) ?? []).filter((b) => b.notRun === undefined);
      const inClone = runnable.some((b) => /^\s*npm /m.test(b.code));
      const { tmp, cwd } = inClone ? { tmp: mkdtempSync(join(tmpdir(), 'ctxgit-docs-shell-')), cwd: root } : workspace();
      if (inClone) tmps.push(tmp);
      const env: Record<string, string> = { PATH, HOME: process.env['HOME'] ?? tmp, npm_config_yes: 'true', npm_config_offline: 'true', npm_config_update_notifier: 'false' };
      for (const block of runnable) {
        // a line ending in `\` goes on on the next one
        const lines = block.code
          .replaceAll('/tmp/ctx.git', join(tmp, 'ctx.git'))
          .replace(/\\\n/g, ' ')
          .split('\n')
          .filter((l) => l.trim() !== '' && !l.trim().startsWith('#'));
        const shell = block.info.startsWith('bash') ? 'bash' : 'sh'; // a bash block may use bash's expansions
        let vars = '';
        for (const raw of lines) {
          let line = raw;
          const where = `${file}:${block.line}: ${raw}`;
          if (command(line).includes('<commit>')) {
            const repo = /--repo\s+(\S+)/.exec(command(line))?.[1] ?? '.ctxgit';
            const log = spawnSync(shell, ['-c', `${vars}npx ctxgit log --json --repo ${repo}`], { cwd, env, encoding: 'utf8' });
            expect(log.status, `${where}\n${log.stderr}`).toBe(0);
            line = line.replaceAll('<commit>', ((JSON.parse(log.stdout) as { id: string }[]).at(-1) as { id: string }).id);
          }
          expect(command(line).match(/<[A-Za-z][\w-]*>/g) ?? [], `${where}: a placeholder the test cannot fill`).toEqual([]);
          if (/\bctxgit serve\b/.test(command(line))) {
            expect(await serveOnce(shell, `${vars}${line}`, cwd, env), where).toMatchObject({ status: 200 });
            continue;
          }
          const r = spawnSync(shell, ['-c', `${vars}${line}`], { cwd, env, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
          expect(r.status, `${where}\n${r.stderr}`).toBe(0);
          if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(command(line).trim())) vars += `${command(line).trim()}; `;
        }
      }
    });
  }
});

/** `npx ctxgit <words>` written inline (in backticks) in the prose of a file, with its line. */
function inlineCommands(file: string): { line: number; words: string[] }[] {
  const out: { line: number; words: string[] }[] = [];
  let fenced = false;
  readFileSync(join(root, file), 'utf8')
    .split('\n')
    .forEach((text, i) => {
      if (/^\s*(`{3,}|~{3,})/.test(text)) fenced = !fenced;
      if (fenced) return;
      for (const m of text.matchAll(/`(?:npx |pnpm )?ctxgit ([^`]+)`/g)) out.push({ line: i + 1, words: (m[1] ?? '').trim().split(/\s+/) });
    });
  return out;
}

describe('inline `ctxgit …` commands of the docs', () => {
  const io = { stdout: { write: () => true }, stderr: { write: () => true }, cwd: root, env: {} };
  const commands = new Map<string, ReturnType<(typeof COMMANDS)[number]>>(COMMANDS.map((make) => make(io)).map((c) => [c.name(), c]));
  const global = new Set(['--help', '-h', '--version', '-V']);
  it('no doc tells a fresh machine to run `pnpm ctxgit` (pnpm is not on its PATH)', () => {
    for (const file of files) expect(readFileSync(join(root, file), 'utf8'), file).not.toMatch(/pnpm ctxgit/);
  });
  for (const file of files) {
    const found = inlineCommands(file);
    it.skipIf(found.length === 0)(`${file}: each names a real command and real options`, () => {
      for (const { line, words } of found) {
        const where = `${file}:${line}: ctxgit ${words.join(' ')}`;
        const [name, ...rest] = words;
        // `ctxgit <command>` and other placeholders, and `ctxgit viewer on <url>` (what serve prints), name no command
        if (name === undefined || global.has(name) || name === 'help' || name.startsWith('<') || (name === 'viewer' && rest[0] === 'on')) continue;
        const cmd = commands.get(name);
        expect(cmd, `${where}: no command ${name}`).toBeDefined();
        const known = new Set([...(cmd?.options ?? []).flatMap((o) => [o.long, o.short, o.negate ? o.long : undefined]), ...global]);
        for (const w of rest) {
          const flag = /^(--?[A-Za-z][\w-]*)/.exec(w)?.[1];
          if (flag !== undefined) expect(known.has(flag), `${where}: ${name} has no option ${flag}`).toBe(true);
        }
      }
    });
  }
});
