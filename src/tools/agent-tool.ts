// ADK's AgentTool: another agent called as a tool. The caller's model calls it with a `request`;
// the agent runs on it, and its last words (the text of its last event that says something)
// are the call's response. `skipSummarization` ends the caller's turn on that response (its
// model is not called again to restate it).
//
// Unlike ADK, whose inner runner keeps the agent's events in a session of its own (thrown away,
// in ADK Python), Trellis keeps them in the caller's session, on a branch of their own
// (`<caller's branch>.<agent>#<call id>`, agents/agent-tool-branches.ts): History shows them, a
// rewind takes them back, an export carries them, and nothing the user is charged for is hidden.
// What must stay true:
// - the caller's model never sees that branch, and the agent sees nothing else (ADK's fresh
//   session): the request, on the branch, is the user's message of its run;
// - the state the agent writes (`temp:` keys aside) comes back in the response's state delta
//   too, as ADK's `toolContext.state.update`, so the caller's events hold what ADK's hold;
// - a call run again (its run resumed after Stop or a crash) goes on with the agent's run on its
//   branch, never a second one: the request is stored once per call, and the answer is read from
//   the branch, whatever part of the run came before the cut;
// - an agent that waits for a human (a tool confirmation) leaves the call open on a resumable
//   runner (the answer resumes it on its branch); on any other the call says it cannot wait.

import {
  agentToolRequestCall,
  agentToolScope,
  agentToolBranch,
} from '../agents/agent-tool-branches.ts';
import type { BaseAgent } from '../agents/base-agent.ts';
import { NO_ANSWER_YET, toolEventsOf } from '../agents/tool-events.ts';
import type { Content } from '../core/content.ts';
import { InvalidRequestError } from '../core/errors.ts';
import type { Event } from '../core/event.ts';
import { StatePrefix } from '../core/state.ts';
import type { InvocationContext } from '../runner/invocation-context.ts';
import { BaseTool } from './base-tool.ts';
import type { ToolContext } from './tool-context.ts';

export interface AgentToolConfig {
  /** The agent to call; not a sub-agent of any other (its tree is its own). */
  agent: BaseAgent;
  /** End the caller's turn with the agent's answer (ADK's): its model is not called again. */
  skipSummarization?: boolean;
}

export class AgentTool extends BaseTool {
  readonly agent: BaseAgent;
  readonly skipSummarization: boolean;

  constructor({ agent, skipSummarization = false }: AgentToolConfig) {
    // Trellis's agents have no inputSchema: the argument is ADK's `request` text.
    super(agent.name, agent.description, {
      type: 'object',
      properties: { request: { type: 'string' } },
      required: ['request'],
    });
    this.agent = agent;
    this.skipSummarization = skipSummarization;
  }

  override async runAsync(
    args: Record<string, unknown>,
    toolContext: ToolContext,
  ): Promise<unknown> {
    const ctx = toolContext.invocationContext;
    const emit = toolEventsOf(ctx);
    if (!emit) {
      throw new InvalidRequestError(
        `The agent ${this.agent.name} can be called as a tool only by an LlmAgent`,
      );
    }
    const callId = toolContext.functionCallId;
    const branch = agentToolBranch(ctx.branch, this.agent.name, callId);
    const content: Content = { role: 'user', parts: [{ text: String(args.request ?? '') }] };
    const onBranch = ctx.forAgent(ctx.agent, branch).withUserContent(content);
    const started = startedRun(ctx, branch, callId);
    if (started === undefined) {
      await emit(
        onBranch.createEvent({
          content,
          customMetadata: { trellis: { agentToolRequest: callId } },
        }),
      );
    }
    for await (const event of this.agent.runAsync(onBranch.resuming(started))) await emit(event);
    if (onBranch.isPausedBelow()) {
      if (ctx.resumable) return NO_ANSWER_YET;
      return {
        error: `${this.agent.name} waits for a human's answer, which only a resumable runner can wait for`,
      };
    }
    // ADK Python sets it; ADK TS 2.0.0 keeps the option but never sets it (a bug we do not
    // copy). Only on an answer: a failure or a wait leaves the caller's turn to go on.
    if (this.skipSummarization) toolContext.actions.skipSummarization = true;
    return this.answer(ctx, branch, callId, toolContext);
  }

  /** The agent's last words on `branch`, its state writes copied into the call's response. */
  private answer(
    ctx: InvocationContext,
    branch: string,
    callId: string,
    toolContext: ToolContext,
  ): string {
    const events = runEvents(ctx, branch, callId);
    for (const event of events) {
      for (const [key, value] of Object.entries(event.actions.stateDelta)) {
        if (!key.startsWith(StatePrefix.temp)) toolContext.state.set(key, value);
      }
    }
    const last = events.findLast((event) => (event.content?.parts.length ?? 0) > 0);
    const texts = (last?.content?.parts ?? [])
      .filter((part) => !part.thought && part.text)
      .map((part) => part.text!);
    return texts.join('\n');
  }
}

/**
 * Where, in the log of the run being resumed, the agent's run for call `callId` starts (its
 * request), if it had started; `undefined` on a fresh run.
 */
function startedRun(ctx: InvocationContext, branch: string, callId: string): number | undefined {
  if (!ctx.isResuming) return undefined;
  return ctx
    .resumeEvents()
    .find(({ event }) => event.branch === branch && agentToolRequestCall(event) === callId)?.index;
}

/** The events of the agent's run for `callId` (after its request), as the session holds them. */
function runEvents(ctx: InvocationContext, branch: string, callId: string): Event[] {
  const events = ctx.activeView.peek();
  const run: Event[] = [];
  for (let i = events.length - 1; i >= 0; i--) {
    const event = events[i]!;
    if (event.branch === branch && agentToolRequestCall(event) === callId) break;
    if (event.invocationId === ctx.invocationId && agentToolScope(event.branch) === branch)
      run.push(event);
  }
  return run.reverse();
}

/** The agents an agent calls as tools (its AgentTools'), for checks over a whole tree. */
export function agentsCalledBy(agent: BaseAgent): BaseAgent[] {
  // An LlmAgent's list (other agents may have `tools` of another shape: a flow's).
  const tools = (agent as { tools?: unknown }).tools;
  if (!Array.isArray(tools)) return [];
  return tools.flatMap((tool) => (tool instanceof AgentTool ? [tool.agent] : []));
}
