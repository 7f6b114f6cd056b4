/** A message input item (Responses). */
export interface OpenAIResponsesMessage {
  type: 'message';
  role: 'system' | 'developer' | 'user' | 'assistant';
  content: string;
}
/** A function call the model made earlier (Responses). */
export interface OpenAIResponsesFunctionCall {
  type: 'function_call';
  call_id: string;
  name: string;
  arguments: string;
}
/** The output of a function call; follows its call. */
export interface OpenAIResponsesFunctionCallOutput {
  type: 'function_call_output';
  call_id: string;
  output: string;
}
/** Any Responses input item `render` writes. */
export type OpenAIResponsesInputItem = OpenAIResponsesMessage | OpenAIResponsesFunctionCall | OpenAIResponsesFunctionCallOutput;

/** A declared function tool (Responses). */
export interface OpenAIResponsesTool {
  type: 'function';
  name: string;
  description?: string;
  parameters: { [key: string]: unknown } | null;
  strict: boolean;
}

/** A Responses request body (`POST /v1/responses`), assignable to the SDK's `ResponseCreateParamsNonStreaming`. */
export interface OpenAIResponsesRequest {
  model: string;
  input: OpenAIResponsesInputItem[];
  tools?: OpenAIResponsesTool[];
}
