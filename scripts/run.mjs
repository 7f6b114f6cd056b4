// Bootstraps pnpm and the frozen install when node_modules is missing, installs Debian's Chromium for the browser
// tests when it is missing (as root, with apt-get; never a browser download through npx), then runs a root script.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const pnpm = ['-y', 'pnpm@12.4.2'];
const exec = (cmd, args) => spawnSync(cmd, args, { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' });
const run = (args) => {
  const r = exec('npx', [...pnpm, ...args]);
  if (r.status !== 0) process.exit(r.status ?? 1);
};
const script = process.argv[2] ?? 'check';
const CHROMIUM = '/usr/bin/chromium';
const onPath = (cmd) => spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0;
if ((script === 'check' || script === 'bench') && process.platform === 'linux' && !existsSync(CHROMIUM) && process.getuid?.() === 0 && onPath('apt-get')) {
  process.stderr.write(`${CHROMIUM} is missing: installing Debian's chromium for the viewer's browser tests\n`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  for (const args of [['update'], ['install', '-y', 'chromium']]) {
    const r = spawnSync('apt-get', args, { stdio: 'inherit', env });
    if (r.status !== 0) process.exit(r.status ?? 1);
  }
}
if (!existsSync(join(root, 'node_modules', '.modules.yaml'))) run(['install', '--frozen-lockfile']);
run(['run', script, ...process.argv.slice(3)]);
