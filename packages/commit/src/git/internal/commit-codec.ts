import { CorruptObjectError, GitArgumentError } from '../errors.js';
import type { CommitObject, GitIdentity, ReadCommitResult } from '../commit-object.js';
import { assertOid, isOid } from './oid.js';
import { LONE_SURROGATE } from './tree-codec.js';

function checkText(argument: string, value: unknown, forbidden: RegExp): asserts value is string {
  if (typeof value !== 'string') throw new GitArgumentError(argument, 'not a string');
  if (forbidden.test(value)) throw new GitArgumentError(argument, `contains a character git does not allow here (${forbidden.source})`);
  if (LONE_SURROGATE.test(value)) throw new GitArgumentError(argument, 'contains a lone surrogate');
}

export function checkIdentity(argument: string, who: GitIdentity): void {
  if (typeof who !== 'object' || who === null) throw new GitArgumentError(argument, 'not an object');
  checkText(`${argument}.name`, who.name, /[<>\n\0]/u);
  checkText(`${argument}.email`, who.email, /[<>\n\0]/u);
  if (who.name.trim() === '' || who.email.trim() === '') throw new GitArgumentError(argument, 'name and email must not be empty');
  if (!Number.isSafeInteger(who.timestamp) || who.timestamp < 0) throw new GitArgumentError(`${argument}.timestamp`, 'expected whole seconds since the epoch, >= 0');
  if (!Number.isInteger(who.timezoneOffset) || Math.abs(who.timezoneOffset) > 14 * 60) {
    throw new GitArgumentError(`${argument}.timezoneOffset`, 'expected whole minutes in [-840, 840]');
  }
}

export function checkCommit(commit: CommitObject): void {
  if (typeof commit !== 'object' || commit === null) throw new GitArgumentError('commit', 'not an object');
  assertOid('commit.tree', commit.tree);
  if (!Array.isArray(commit.parents)) throw new GitArgumentError('commit.parents', 'not an array');
  commit.parents.forEach((parent, i) => assertOid(`commit.parents[${i}]`, parent));
  if (new Set(commit.parents).size !== commit.parents.length) throw new GitArgumentError('commit.parents', 'names a parent twice');
  checkText('commit.message', commit.message, /\0/u);
  checkIdentity('commit.author', commit.author);
  if (commit.committer !== undefined) checkIdentity('commit.committer', commit.committer);
}

function formatIdentity(who: GitIdentity): string {
  const minutes = Math.abs(who.timezoneOffset);
  const sign = who.timezoneOffset > 0 ? '-' : '+';
  const hh = String(Math.floor(minutes / 60)).padStart(2, '0');
  const mm = String(minutes % 60).padStart(2, '0');
  return `${who.name} <${who.email}> ${who.timestamp} ${sign}${hh}${mm}`;
}

export function encodeCommit(commit: CommitObject): Uint8Array {
  const lines = [`tree ${commit.tree}`, ...commit.parents.map((p) => `parent ${p}`), `author ${formatIdentity(commit.author)}`, `committer ${formatIdentity(commit.committer ?? commit.author)}`];
  return Buffer.from(`${lines.join('\n')}\n\n${commit.message}`, 'utf8');
}

function parseIdentity(oid: string, line: string): GitIdentity {
  const m = /^(.*) <(.*)> (\d+) ([+-])(\d\d)(\d\d)$/u.exec(line);
  if (m === null) throw new CorruptObjectError(`commit ${oid}`, `bad identity line ${JSON.stringify(line)}`);
  const [, name = '', email = '', ts = '0', sign, hh = '0', mm = '0'] = m;
  const minutes = Number(hh) * 60 + Number(mm);
  return { name, email, timestamp: Number(ts), timezoneOffset: minutes === 0 ? 0 : sign === '+' ? -minutes : minutes };
}

export function decodeCommit(oid: string, content: Uint8Array): ReadCommitResult {
  const text = Buffer.from(content.buffer, content.byteOffset, content.byteLength).toString('utf8');
  const split = text.indexOf('\n\n');
  const head = split < 0 ? text : text.slice(0, split);
  const message = split < 0 ? '' : text.slice(split + 2);
  let tree: string | undefined;
  const parents: string[] = [];
  let author: GitIdentity | undefined;
  let committer: GitIdentity | undefined;
  for (const line of head.split('\n')) {
    const space = line.indexOf(' ');
    const key = line.slice(0, space);
    const value = line.slice(space + 1);
    if (key === 'tree') tree = value;
    else if (key === 'parent') parents.push(value);
    else if (key === 'author') author = parseIdentity(oid, value);
    else if (key === 'committer') committer = parseIdentity(oid, value);
  }
  if (!isOid(tree) || author === undefined || committer === undefined || !parents.every(isOid)) {
    throw new CorruptObjectError(`commit ${oid}`, 'missing tree, author or committer header');
  }
  return { oid, tree, parents, message, author, committer };
}
