import type { CachePrices, ModelTable, ResolvedModel } from '@ctxgit/tokenize';
import { createBudget, resolveModel, UnknownModelError as TokenizeUnknownModelError } from '@ctxgit/tokenize';
import { canonicalJson } from '@ctxgit/dag';
import { InvalidOptionError, UnknownModelError } from '../errors.js';
import type { GitContext } from '../git/git-context.js';
import { readBlob } from '../git/read-blob.js';
import { readCommitObject } from '../git/read-commit-object.js';
import { readPath } from '../git/read-path.js';
import { updateTree } from '../git/update-tree.js';
import { writeBlob } from '../git/write-blob.js';
import { writeCommit } from '../git/write-commit.js';
import { AUTHOR } from './write-stored-commit.js';

/** What is stored about a session besides its DAG record: `session.json` of its config commit. */
export interface SessionConfig {
  readonly format: 1;
  readonly session: string;
  /** `"provider:model"`. */
  readonly model: string;
  /** Context window override, tokens. */
  readonly window?: number;
  /** History budget override, tokens. */
  readonly budget?: number;
  /** Reply reserve override, tokens. */
  readonly outputReserve?: number;
  /** Milliseconds since the epoch. */
  readonly createdAt: number;
}

/** A session's model resolved to a window and a history budget (tokens). */
export interface ResolvedSizes {
  readonly window: number;
  readonly historyBudget: number;
  /** Tokens kept free for the reply (0 when the budget was given: it is the history's share already). */
  readonly outputReserve: number;
  readonly encoding: string;
  /** The model's prompt-cache prices (the model table's). */
  readonly cache: CachePrices;
}

function checkTokens(option: string, value: unknown): void {
  if (value !== undefined && (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1)) {
    throw new InvalidOptionError(option, value, 'a positive integer number of tokens');
  }
}

/** Resolves model, window and budget; refuses an unknown model without `window`/`budget`, and bad sizes. */
export function resolveSizes(config: Omit<SessionConfig, 'format' | 'session' | 'createdAt'>, models?: ModelTable): ResolvedSizes {
  if (typeof config.model !== 'string') throw new InvalidOptionError('model', config.model, 'a "provider:model" string');
  checkTokens('window', config.window);
  checkTokens('budget', config.budget);
  if (config.outputReserve !== undefined && (typeof config.outputReserve !== 'number' || !Number.isSafeInteger(config.outputReserve) || config.outputReserve < 0)) {
    throw new InvalidOptionError('outputReserve', config.outputReserve, 'a non-negative integer number of tokens');
  }
  const resolve = (window: number | undefined): ResolvedModel =>
    resolveModel(config.model, { ...(models === undefined ? {} : { models }), ...(window === undefined ? {} : { window }) });
  let model: ResolvedModel;
  try {
    try {
      model = resolve(config.window);
    } catch (err) {
      // an unknown model with only a budget: the budget is its window
      if (!(err instanceof TokenizeUnknownModelError) || config.budget === undefined) throw err;
      model = resolve(config.budget);
    }
  } catch (err) {
    if (err instanceof TokenizeUnknownModelError) throw new UnknownModelError(config.model, err);
    throw new InvalidOptionError('model', config.model, `a known "provider:model" (${err instanceof Error ? err.message : String(err)})`);
  }
  const window = model.window;
  if (config.budget !== undefined) {
    if (config.budget > window) throw new InvalidOptionError('budget', config.budget, `at most the window (${window} tokens)`);
    return { window, historyBudget: config.budget, outputReserve: config.outputReserve ?? 0, encoding: model.encoding, cache: model.cache };
  }
  const outputReserve = config.outputReserve ?? Math.min(model.maxOutput, Math.floor(window / 4));
  if (outputReserve >= window) throw new InvalidOptionError('outputReserve', outputReserve, `below the window (${window} tokens)`);
  return { window, historyBudget: createBudget({ window, outputReserve }).history, outputReserve, encoding: model.encoding, cache: model.cache };
}

/** Name of the config blob in a config commit's tree. */
const CONFIG_FILE = 'session.json';

/** Writes the config commit (a root commit holding `session.json`); returns its oid. */
export async function writeSessionConfig(ctx: GitContext, config: SessionConfig): Promise<string> {
  const blob = await writeBlob(ctx, `${canonicalJson(config)}\n`);
  const tree = await updateTree(ctx, null, [{ path: [CONFIG_FILE], oid: blob, type: 'blob' }]);
  const identity = { ...AUTHOR, timestamp: Math.floor(config.createdAt / 1000), timezoneOffset: 0 };
  const sizes = [config.window === undefined ? '' : `, window ${config.window}`, config.budget === undefined ? '' : `, budget ${config.budget}`].join('');
  const message = `session ${config.session}: model ${config.model}${sizes}\n\nThe configuration of ctxgit session ${config.session}; its context commits are on refs/ctxgit/sessions/${config.session}/context.\n`;
  return writeCommit(ctx, { tree, parents: [], message, author: identity, committer: identity });
}

/** Reads `session.json` of a config commit. */
export async function readSessionConfig(ctx: GitContext, oid: string): Promise<SessionConfig> {
  const commit = await readCommitObject(ctx, oid);
  const blob = await readPath(ctx, commit.tree, [CONFIG_FILE]);
  if (blob === undefined) throw new InvalidOptionError('config', oid, `a config commit holding ${CONFIG_FILE}`);
  return JSON.parse(new TextDecoder().decode(await readBlob(ctx, blob))) as SessionConfig;
}
