// The conversation as the messages a local model's chat template formats: what the model is
// sent, and what a request's size is measured on (context-fit.ts).

import type { Content } from '../../core/content.ts';
import type { LlmRequest } from '../llm.ts';

/** A chat message as the model's own chat template (in the GGUF) formats it. */
export interface LocalChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/**
 * The conversation as the chat template's messages. Templates differ in what they accept
 * (Gemma's rejects a tool role, and two messages in a row from one side), so calls are written
 * as the assistant's JSON, results as the user's text, and messages in a row from one side are
 * joined. The tools are described in the system message.
 */
export function toChatMessages(request: LlmRequest): LocalChatMessage[] {
  const messages: LocalChatMessage[] = [];
  const push = (role: LocalChatMessage['role'], content: string) => {
    const last = messages[messages.length - 1];
    if (last && last.role === role) last.content += `\n\n${content}`;
    else messages.push({ role, content });
  };
  const system = [request.systemInstruction, toolsPreamble(request)].filter(Boolean).join('\n\n');
  if (system) push('system', system);
  for (const content of request.contents) {
    const text = contentText(content);
    if (text) push(content.role === 'model' ? 'assistant' : 'user', text);
  }
  return messages;
}

export function contentText(content: Content): string {
  const pieces: string[] = [];
  for (const part of content.parts) {
    if (part.thought) continue;
    if (part.functionCall) {
      const { name, args } = part.functionCall;
      pieces.push(JSON.stringify({ name, arguments: args ?? {} }));
    } else if (part.functionResponse) {
      const { name, response } = part.functionResponse;
      pieces.push(`Result of ${name}: ${JSON.stringify(response)}`);
    } else if (part.text !== undefined) pieces.push(part.text);
    else if (part.inlineData)
      pieces.push(`[${part.inlineData.mimeType} attachment: a local model cannot read it]`);
  }
  return pieces.join('\n');
}

export function toolsPreamble(request: LlmRequest): string {
  const tools = request.tools ?? [];
  if (tools.length === 0) return '';
  const list = tools.map(
    (tool) =>
      `- ${tool.name}${tool.description ? `: ${tool.description}` : ''}\n  arguments: ${JSON.stringify(tool.parameters ?? {})}`,
  );
  return (
    'You can call tools. To call one, reply with only {"name": "<tool>", "arguments": {...}}; ' +
    "the tool's result comes back in the next message. Otherwise answer in plain text.\n" +
    `Tools:\n${list.join('\n')}`
  );
}
