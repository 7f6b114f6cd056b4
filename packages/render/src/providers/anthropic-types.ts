/** Marks the end of a cached prefix (Anthropic prompt caching). */
export interface AnthropicCacheControl {
  type: 'ephemeral';
}
/** A text content block. */
export interface AnthropicTextBlock {
  type: 'text';
  text: string;
  cache_control?: AnthropicCacheControl;
}
/** A tool call the assistant made. */
export interface AnthropicToolUseBlock {
  type: 'tool_use';
  id: string;
  name: string;
  input: { [key: string]: unknown };
  cache_control?: AnthropicCacheControl;
}
/** The result of a tool call, at the start of the user turn after the call. */
export interface AnthropicToolResultBlock {
  type: 'tool_result';
  tool_use_id: string;
  content: string;
  is_error?: boolean;
  cache_control?: AnthropicCacheControl;
}
/** Any content block `render` writes. */
export type AnthropicContentBlock = AnthropicTextBlock | AnthropicToolUseBlock | AnthropicToolResultBlock;

/** A user turn. */
export interface AnthropicUserMessage {
  role: 'user';
  content: (AnthropicTextBlock | AnthropicToolResultBlock)[];
}
/** An assistant turn. */
export interface AnthropicAssistantMessage {
  role: 'assistant';
  content: (AnthropicTextBlock | AnthropicToolUseBlock)[];
}
/** A message of the alternating user/assistant sequence. */
export type AnthropicMessage = AnthropicUserMessage | AnthropicAssistantMessage;

/** A declared client tool. */
export interface AnthropicTool {
  name: string;
  description?: string;
  input_schema: { type: 'object'; [key: string]: unknown };
}

/** A Messages request body (`POST /v1/messages`), assignable to the SDK's `MessageCreateParamsNonStreaming`. */
export interface AnthropicRequest {
  model: string;
  max_tokens: number;
  system?: AnthropicTextBlock[];
  messages: AnthropicMessage[];
  tools?: AnthropicTool[];
}
