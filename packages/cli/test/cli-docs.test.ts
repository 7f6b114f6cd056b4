// docs/cli.md documents every command and every option the parser knows, so the guide cannot fall behind.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../src/commands/index.js';
import { root } from './helpers.js';

const guide = readFileSync(join(root, 'docs', 'cli.md'), 'utf8');
const io = { stdout: { write: () => true }, stderr: { write: () => true }, cwd: root, env: {} };

describe('docs/cli.md', () => {
  for (const make of COMMANDS) {
    const cmd = make(io);
    it(`documents ${cmd.name()} and its options`, () => {
      expect(guide).toContain(`## \`${cmd.name()}`);
      for (const opt of cmd.options) expect(guide, `${cmd.name()} ${opt.long ?? ''}`).toContain(`\`${opt.long ?? ''}`);
    });
  }
});
