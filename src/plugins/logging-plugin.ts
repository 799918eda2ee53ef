// ADK's LoggingPlugin: a line for each step of every run (the user's message, the run's start
// and end, each event, agent, model call and tool call), for watching what a runner does. It
// answers nothing, so the runs go on as if it were not there. Lines go to `log` (console.info by
// default, as ADK's logger does); texts are cut to 200 characters and arguments to 300.
//
// Secrets: it logs what the run holds (messages, arguments, results), never a provider's key or
// a request's headers, which no callback is given.

import type { CallbackContext } from '../agents/callback-context.ts';
import type { Content } from '../core/content.ts';
import type { Event } from '../core/event.ts';
import type { LlmRequest, LlmResponse } from '../models/llm.ts';
import type { InvocationContext } from '../runner/invocation-context.ts';
import type { BaseTool } from '../tools/base-tool.ts';
import type { ToolContext } from '../tools/tool-context.ts';
import { BasePlugin } from './base-plugin.ts';

type ToolCall = { tool: BaseTool; toolArgs: Record<string, unknown>; toolContext: ToolContext };

export class LoggingPlugin extends BasePlugin {
  private readonly write: (line: string) => void;

  constructor(name = 'logging_plugin', options: { log?: (line: string) => void } = {}) {
    super(name);
    // eslint-disable-next-line no-console
    this.write = options.log ?? ((line) => console.info(line));
  }

  private log(message: string): void {
    this.write(`[${this.name}] ${message}`);
  }

  override onUserMessageCallback(params: {
    invocationContext: InvocationContext;
    userMessage: Content;
  }): undefined {
    const ctx = params.invocationContext;
    this.log('USER MESSAGE RECEIVED');
    this.log(`   Invocation ID: ${ctx.invocationId}`);
    this.log(`   Session ID: ${ctx.session.id}`);
    this.log(`   User ID: ${ctx.userId}`);
    this.log(`   App Name: ${ctx.session.appName}`);
    this.log(`   Root Agent: ${ctx.agent.name}`);
    this.log(`   User Content: ${formatContent(params.userMessage)}`);
    if (ctx.branch) this.log(`   Branch: ${ctx.branch}`);
    return undefined;
  }

  override beforeRunCallback({ invocationContext }: { invocationContext: InvocationContext }) {
    this.log('INVOCATION STARTING');
    this.log(`   Invocation ID: ${invocationContext.invocationId}`);
    this.log(`   Starting Agent: ${invocationContext.agent.name}`);
    return undefined;
  }

  override onEventCallback({ event }: { event: Event }): undefined {
    this.log('EVENT YIELDED');
    this.log(`   Event ID: ${event.id}`);
    this.log(`   Author: ${event.author}`);
    this.log(`   Content: ${formatContent(event.content)}`);
    const parts = event.content?.parts ?? [];
    const calls = parts.flatMap((part) => (part.functionCall ? [part.functionCall.name] : []));
    if (calls.length > 0) this.log(`   Function Calls: ${calls.join(',')}`);
    const answers = parts.flatMap((p) => (p.functionResponse ? [p.functionResponse.name] : []));
    if (answers.length > 0) this.log(`   Function Responses: ${answers.join(',')}`);
    if (event.longRunningToolIds?.length)
      this.log(`   Long Running Tools: ${event.longRunningToolIds.join(',')}`);
    return undefined;
  }

  override afterRunCallback({ invocationContext }: { invocationContext: InvocationContext }) {
    this.log('INVOCATION COMPLETED');
    this.log(`   Invocation ID: ${invocationContext.invocationId}`);
    this.log(`   Final Agent: ${invocationContext.agent.name}`);
  }

  override beforeAgentCallback({ callbackContext }: { callbackContext: CallbackContext }) {
    this.log('AGENT STARTING');
    this.log(`   Agent Name: ${callbackContext.agentName}`);
    this.log(`   Invocation ID: ${callbackContext.invocationId}`);
    const branch = callbackContext.invocationContext.branch;
    if (branch) this.log(`   Branch: ${branch}`);
    return undefined;
  }

  override afterAgentCallback({ callbackContext }: { callbackContext: CallbackContext }) {
    this.log('AGENT COMPLETED');
    this.log(`   Agent Name: ${callbackContext.agentName}`);
    this.log(`   Invocation ID: ${callbackContext.invocationId}`);
    return undefined;
  }

  override beforeModelCallback(params: {
    callbackContext: CallbackContext;
    llmRequest: LlmRequest;
  }): undefined {
    const { llmRequest } = params;
    this.log('LLM REQUEST');
    this.log(`   Model: ${llmRequest.model ?? 'default'}`);
    this.log(`   Agent: ${params.callbackContext.agentName}`);
    if (llmRequest.systemInstruction)
      this.log(`   System Instruction: '${cut(llmRequest.systemInstruction, 200)}'`);
    const tools = llmRequest.tools?.map((tool) => tool.name) ?? [];
    if (tools.length > 0) this.log(`   Available Tools: ${tools.join(',')}`);
    return undefined;
  }

  override afterModelCallback(params: {
    callbackContext: CallbackContext;
    llmResponse: LlmResponse;
  }): undefined {
    const { llmResponse } = params;
    this.log('LLM RESPONSE');
    this.log(`   Agent: ${params.callbackContext.agentName}`);
    if (llmResponse.errorCode) {
      this.log(`   ERROR - Code: ${llmResponse.errorCode}`);
      this.log(`   Error Message: ${llmResponse.errorMessage ?? ''}`);
    } else {
      this.log(`   Content: ${formatContent(llmResponse.content)}`);
      if (llmResponse.partial) this.log(`   Partial: ${llmResponse.partial}`);
      if (llmResponse.turnComplete !== undefined)
        this.log(`   Turn Complete: ${llmResponse.turnComplete}`);
    }
    const usage = llmResponse.usageMetadata;
    if (usage)
      this.log(
        `   Token Usage - Input: ${usage.promptTokenCount}, Output: ${usage.candidatesTokenCount}`,
      );
    return undefined;
  }

  override beforeToolCallback({ tool, toolArgs, toolContext }: ToolCall): undefined {
    this.log('TOOL STARTING');
    this.toolLines(tool, toolContext);
    this.log(`   Arguments: ${formatArgs(toolArgs)}`);
    return undefined;
  }

  override afterToolCallback(params: ToolCall & { result: Record<string, unknown> }): undefined {
    this.log('TOOL COMPLETED');
    this.toolLines(params.tool, params.toolContext);
    this.log(`   Result: ${formatArgs(params.result)}`);
    return undefined;
  }

  override onModelErrorCallback(params: { callbackContext: CallbackContext; error: Error }) {
    this.log('LLM ERROR');
    this.log(`   Agent: ${params.callbackContext.agentName}`);
    this.log(`   Error: ${params.error.message}`);
    return undefined;
  }

  override onToolErrorCallback(params: ToolCall & { error: Error }): undefined {
    this.log('TOOL ERROR');
    this.toolLines(params.tool, params.toolContext);
    this.log(`   Arguments: ${formatArgs(params.toolArgs)}`);
    this.log(`   Error: ${params.error.message}`);
    return undefined;
  }

  private toolLines(tool: BaseTool, context: ToolContext): void {
    this.log(`   Tool Name: ${tool.name}`);
    this.log(`   Agent: ${context.agentName}`);
    this.log(`   Function Call ID: ${context.functionCallId}`);
  }
}

function cut(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}...` : text;
}

/** A content's parts, one short phrase each (ADK's format). */
function formatContent(content: Content | undefined): string {
  if (!content?.parts?.length) return 'None';
  return content.parts
    .map((part) =>
      part.text !== undefined
        ? `text: '${cut(part.text.trim(), 200)}'`
        : part.functionCall
          ? `function_call: ${part.functionCall.name}`
          : part.functionResponse
            ? `function_response: ${part.functionResponse.name}`
            : 'other_part',
    )
    .join(' | ');
}

function formatArgs(args: Record<string, unknown> | undefined): string {
  if (!args) return '{}';
  let text: string;
  try {
    text = JSON.stringify(args);
  } catch {
    text = String(args);
  }
  return text.length > 300 ? `${text.slice(0, 300)}...}` : text;
}
