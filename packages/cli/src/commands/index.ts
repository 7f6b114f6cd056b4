import type { Command } from 'commander';
import type { CliIo } from '../io.js';
import { checkoutCommand } from './checkout.js';
import { diffCommand } from './diff.js';
import { expandCommand } from './expand.js';
import { exportCommand } from './export.js';
import { forkCommand } from './fork.js';
import { gcCommand } from './gc.js';
import { importCommand } from './import.js';
import { logCommand } from './log.js';
import { mergeCommand } from './merge.js';
import { renderCommand } from './render.js';
import { serveCommand } from './serve.js';
import { sessionsCommand } from './sessions.js';
import { showCommand } from './show.js';
import { statsCommand } from './stats.js';
import { verifyCommand } from './verify.js';

import { pushCommand } from './push.js';
import { cloneCommand, fetchCommand } from './fetch.js';

/** Every subcommand, in the order `ctxgit --help` lists them. */
export const COMMANDS: readonly ((io: CliIo) => Command)[] = [
  importCommand,
  sessionsCommand,
  logCommand,
  showCommand,
  renderCommand,
  diffCommand,
  statsCommand,
  exportCommand,
  checkoutCommand,
  forkCommand,
  mergeCommand,
  expandCommand,
  verifyCommand,
  gcCommand,
  serveCommand,
  pushCommand,
  fetchCommand,
  cloneCommand,
];
