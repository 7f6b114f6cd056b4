import { Option } from 'commander';
import type { Command } from 'commander';
import type { ProviderName, RenderOptions } from '@ctxgit/render';
import { positiveInt } from './options.js';

/** The request formats `--provider` accepts. */
export const PROVIDERS: readonly ProviderName[] = ['openai-chat', 'openai-responses', 'anthropic', 'text'];

/** Render options as the commands take them. */
export interface RenderArgs {
  readonly provider: ProviderName;
  readonly maxTokens?: number;
  readonly allowAssistantLast?: boolean;
}

/** Adds `--provider`, `--max-tokens` and `--allow-assistant-last` to a command. */
export function withRenderOptions(cmd: Command, required: boolean): Command {
  const provider = new Option('--provider <provider>', 'request format').choices(PROVIDERS);
  return cmd
    .addOption(required ? provider.makeOptionMandatory() : provider.default('openai-chat'))
    .addOption(new Option('--max-tokens <tokens>', 'anthropic: max_tokens of the request (default 4096)').argParser(positiveInt('--max-tokens')))
    .addOption(new Option('--allow-assistant-last', 'accept a commit that ends with an assistant message (anthropic: a prefill)'));
}

/** The {@link RenderOptions} the arguments stand for. */
export function renderOptions(args: RenderArgs): RenderOptions {
  return {
    provider: args.provider,
    ...(args.maxTokens === undefined ? {} : { maxTokens: args.maxTokens }),
    ...(args.allowAssistantLast === true ? { allowAssistantLast: true } : {}),
  };
}
