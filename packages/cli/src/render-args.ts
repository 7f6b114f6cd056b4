import { Option } from 'commander';
import type { Command } from 'commander';
import type { ContextCommit } from '@ctxgit/commit';
import type { ProviderName, RenderOptions, RenderOutput } from '@ctxgit/render';
import { InvalidEndingError, render } from '@ctxgit/render';
import { CliError } from './errors.js';
import { positiveInt } from './options.js';

/** The request formats `--provider` accepts. */
export const PROVIDERS: readonly ProviderName[] = ['openai-chat', 'openai-responses', 'anthropic', 'text'];

/** Render options as the commands take them. */
export interface RenderArgs {
  readonly provider: ProviderName;
  readonly model?: string;
  readonly maxTokens?: number;
  readonly allowAssistantLast?: boolean;
}

/** Adds `--provider`, `--max-tokens` and (for commands that send the body as is) `--allow-assistant-last` to a command. */
export function withRenderOptions(cmd: Command, required: boolean, assistantLastOption = true): Command {
  const provider = new Option('--provider <provider>', 'request format').choices(PROVIDERS);
  cmd
    .addOption(required ? provider.makeOptionMandatory() : provider.default('openai-chat'))
    .addOption(new Option('--model <model>', "the model the request names (default: the session's; required for a provider of another family than the session's model)"))
    .addOption(new Option('--max-tokens <tokens>', 'anthropic: max_tokens of the request (default 4096)').argParser(positiveInt('--max-tokens')));
  return assistantLastOption ? cmd.addOption(new Option('--allow-assistant-last', 'accept a commit that ends with an assistant message (anthropic: a prefill)')) : cmd;
}

/** The {@link RenderOptions} the arguments stand for. */
export function renderOptions(args: RenderArgs): RenderOptions {
  return {
    provider: args.provider,
    ...(args.model === undefined ? {} : { model: args.model }),
    ...(args.maxTokens === undefined ? {} : { maxTokens: args.maxTokens }),
    ...(args.allowAssistantLast === true ? { allowAssistantLast: true } : {}),
  };
}

/** Renders a commit as the arguments say; an assistant-last commit gets the CLI's hint (`--allow-assistant-last`). */
export function renderCommit(commit: ContextCommit, args: RenderArgs): RenderOutput {
  try {
    return render(commit, renderOptions(args));
  } catch (err) {
    if (!(err instanceof InvalidEndingError)) throw err;
    throw new CliError(err.code, `commit ${commit.id.slice(0, 12)} ends with an assistant message (it is not the context of a model call); pass --allow-assistant-last to render it anyway`, err.data, { cause: err });
  }
}
