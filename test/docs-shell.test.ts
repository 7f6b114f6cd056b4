// Runs the shell blocks of README.md and docs/getting-started.md that call `npx ctxgit`, as written, from the
// repository root, with a PATH that holds node and the system tools but no pnpm: a fresh machine's commands. The
// CLI must be built (`npm test` builds before it runs vitest). `<commit>` stands for a commit id: the newest
// commit that `log --json` lists.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { fencedBlocks } from './fenced-blocks.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const PATH = [dirname(process.execPath), '/usr/local/bin', '/usr/bin', '/bin'].join(delimiter);

const onPath = (cmd: string): boolean => spawnSync('sh', ['-c', `command -v ${cmd}`], { env: { PATH } }).status === 0;

describe.each(['README.md', 'docs/getting-started.md'])('%s: the shell commands run as written', (doc) => {
  const blocks = fencedBlocks(readFileSync(join(root, doc), 'utf8'), doc).filter((b) => /^(sh|bash)$/.test(b.info) && b.code.includes('npx ctxgit'));
  it.skipIf(!onPath('git') || onPath('pnpm'))('every line exits 0, without pnpm on the PATH', () => {
    expect(blocks.length).toBeGreaterThan(0);
    const tmp = mkdtempSync(join(tmpdir(), 'ctxgit-docs-shell-'));
    try {
      for (const block of blocks) {
        // the blocks write to /tmp/ctx.git: point them at a fresh directory of this run
        const lines = block.code.replaceAll('/tmp/ctx.git', join(tmp, 'ctx.git')).split('\n').filter((l) => l.trim() !== '' && !l.trim().startsWith('#'));
        const env: Record<string, string> = { PATH, HOME: process.env['HOME'] ?? tmp, npm_config_yes: 'true', npm_config_offline: 'true' };
        let vars = '';
        for (const raw of lines) {
          let line = raw;
          if (line.includes('<commit>')) {
            const log = spawnSync('sh', ['-c', `${vars}npx ctxgit log --json --repo ${join(tmp, 'ctx.git')}`], { cwd: root, env, encoding: 'utf8' });
            expect(log.status, log.stderr).toBe(0);
            const commits = JSON.parse(log.stdout) as { id: string }[];
            line = line.replaceAll('<commit>', (commits.at(-1) as { id: string }).id);
          }
          const r = spawnSync('sh', ['-c', `${vars}${line}`], { cwd: root, env, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
          expect(r.status, `${doc}:${block.line}: ${line}\n${r.stderr}`).toBe(0);
          if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(line.trim())) vars += `${line.trim()}; `;
        }
      }
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  });
});
