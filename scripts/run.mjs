// Bootstraps pnpm and the frozen install when node_modules is missing, then runs a root script with pnpm.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const pnpm = ['-y', 'pnpm@12.4.2'];
const run = (args) => {
  const r = spawnSync('npx', [...pnpm, ...args], { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' });
  if (r.status !== 0) process.exit(r.status ?? 1);
};
if (!existsSync(join(root, 'node_modules', '.modules.yaml'))) run(['install', '--frozen-lockfile']);
run(['run', process.argv[2] ?? 'check', ...process.argv.slice(3)]);
