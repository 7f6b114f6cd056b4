/** A `function` tool call in an assistant message (Chat Completions). */
export interface OpenAIChatToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

/** A system (or developer) message. */
export interface OpenAIChatSystemMessage {
  role: 'system' | 'developer';
  content: string;
}
/** A user message. */
export interface OpenAIChatUserMessage {
  role: 'user';
  content: string;
}
/** An assistant message: text, tool calls, or both. */
export interface OpenAIChatAssistantMessage {
  role: 'assistant';
  content: string | null;
  tool_calls?: OpenAIChatToolCall[];
}
/** The result of one tool call; follows the assistant message holding the call. */
export interface OpenAIChatToolMessage {
  role: 'tool';
  tool_call_id: string;
  content: string;
}
/** Any Chat Completions message `render` writes. */
export type OpenAIChatMessage = OpenAIChatSystemMessage | OpenAIChatUserMessage | OpenAIChatAssistantMessage | OpenAIChatToolMessage;

/** A declared function tool (Chat Completions). */
export interface OpenAIChatTool {
  type: 'function';
  function: { name: string; description?: string; parameters?: { [key: string]: unknown } };
}

/** A Chat Completions request body (`POST /v1/chat/completions`), assignable to the SDK's `ChatCompletionCreateParamsNonStreaming`. */
export interface OpenAIChatRequest {
  model: string;
  messages: OpenAIChatMessage[];
  tools?: OpenAIChatTool[];
}
