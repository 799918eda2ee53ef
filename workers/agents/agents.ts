// The agents a session can talk to (the demo agents, the example flows, the user's flows, the
// agents of the agent builder) and one runner per agent id. A flow's or a built agent's runner is
// built from its definition as stored when it was built; once that changes (an edit saved in
// this tab or another, a provider's new key), the next run builds a new one.

import { DEMO_AGENTS } from '../../src/demos/index.ts';
import type { DemoTiming } from '../../src/demos/writing-workflow.ts';
import { BaseAgent, InvalidRequestError, type Event, type Runner } from '../../src/index.ts';
import { agentChoice } from '../sessions/sessions.ts';
import { isRemoteId, remoteIdParts } from '../remote/adk-servers.ts';
import { isFlowAgent, type AgentSource, type AppFlows } from '../flows/flows.ts';
import { isSpecAgent, type AppAgentSpecs } from './agent-specs.ts';
import type { AgentInfo } from '../protocol.ts';
import { MODEL_CHAT_ID } from './chat-settings.ts';
import type { ModelChat } from './model-chat.ts';
import { attachmentPolicy } from '../../src/models/attachments.ts';
import { workflowGraph, type WorkflowGraph } from '../../src/workflow/graph-view.ts';
import { Workflow } from '../../src/workflow/workflow.ts';

export class AppAgents {
  private readonly runners = new Map<string, { version: string; runner: Runner }>();

  constructor(
    private readonly flows: AppFlows,
    /** The demo pace now in force (a setting: it can change between runs). */
    private readonly timing: () => Promise<DemoTiming | undefined>,
    private readonly newRunner: (agent: BaseAgent, resumable: boolean) => Runner,
    private readonly specs: AppAgentSpecs,
    /** "Chat with a model": its agent is built from each session's settings. */
    private readonly modelChat?: ModelChat,
  ) {}

  /** The demo agents, then the example flows, then the user's flows, then the user's agents. */
  async list(): Promise<AgentInfo[]> {
    const demos = DEMO_AGENTS.map(({ id, name, description }) => {
      const workflow = this.workflowGraph(id);
      return {
        id,
        name,
        description,
        kind: 'demo' as const,
        attachments: attachmentPolicy('demo'),
        ...(workflow ? { workflow } : {}),
      };
    });
    const [flows, specs, models] = await Promise.all([
      this.flows.agentInfos(),
      this.specs.agentInfos(),
      this.modelChat?.agentInfos() ?? [],
    ]);
    return [...models, ...demos, ...flows, ...specs];
  }

  /** The graph of a demo agent that is an ADK 2.0 Workflow (built once). */
  private workflowGraph(id: string): WorkflowGraph | undefined {
    if (!this.graphs.has(id)) {
      const agent = DEMO_AGENTS.find((demo) => demo.id === id)?.create();
      this.graphs.set(
        id,
        agent instanceof Workflow ? workflowGraph(agent.name, agent.graph) : undefined,
      );
    }
    return this.graphs.get(id);
  }

  private readonly graphs = new Map<string, WorkflowGraph | undefined>();

  async knows(agentId: string): Promise<boolean> {
    if (isFlowAgent(agentId)) return this.flows.exists(agentId);
    if (isSpecAgent(agentId)) return this.specs.exists(agentId);
    if (agentId === MODEL_CHAT_ID) return !!this.modelChat;
    return DEMO_AGENTS.some((agent) => agent.id === agentId);
  }

  /** Whether the agent's runs are offered for resuming (a built agent may say no). */
  async resumable(agentId: string): Promise<boolean> {
    return isSpecAgent(agentId) ? this.specs.resumable(agentId) : true;
  }

  /** Whether the agent's turns join memory ("Remembers across sessions", a built agent's). */
  async remembers(agentId: string): Promise<boolean> {
    return isSpecAgent(agentId) ? this.specs.remembers(agentId) : false;
  }

  /** InvalidRequestError unless the agent exists. */
  async check(agentId: string): Promise<void> {
    if (!(await this.knows(agentId))) throw new InvalidRequestError(`There is no agent ${agentId}`);
  }

  /**
   * The agent's runner; a deleted flow is an InvalidRequestError saying so. A chat with a model
   * is built from the settings in its session's `state`.
   */
  async runner(agentId: string, state?: () => Promise<Readonly<Record<string, unknown>>>) {
    const [source, timing] = await Promise.all([this.source(agentId, state), this.timing()]);
    const version = `${source.version} ${JSON.stringify(timing ?? null)}`;
    // One runner per chat settings in use (sessions with the same settings share it).
    const key = agentId === MODEL_CHAT_ID ? `${agentId} ${source.version}` : agentId;
    const cached = this.runners.get(key);
    if (cached?.version === version) return cached.runner;
    const runner: Runner = this.newRunner(source.create(timing), source.resumable ?? true);
    this.runners.set(key, { version, runner });
    return runner;
  }

  private async source(
    agentId: string,
    state?: () => Promise<Readonly<Record<string, unknown>>>,
  ): Promise<AgentSource & { resumable?: boolean }> {
    if (agentId === MODEL_CHAT_ID && this.modelChat)
      return this.modelChat.source(state ? await state() : {});
    // A session copied from an ADK server keeps the server's app as its agent: its runner
    // rewinds and forks as any local one, and a message sent there is refused, not answered by
    // another agent.
    if (isRemoteId(agentId)) {
      const appName = remoteIdParts(agentId)[1] ?? '';
      return { version: 'adk-app', create: () => new ServerAppInCopy(appName) };
    }
    if (isFlowAgent(agentId)) return this.flows.source(agentId);
    if (isSpecAgent(agentId)) return this.specs.source(agentId);
    const choice = agentChoice(agentId);
    return { version: 'demo', create: (timing) => choice.create(timing) };
  }
}

/**
 * The agent of a session copied from an ADK server: the server's app, which answers only in its
 * own sessions. A run in the copy says so, and how to go on.
 */
class ServerAppInCopy extends BaseAgent {
  constructor(private readonly appName: string) {
    super({ name: appName.replace(/[^A-Za-z0-9_-]/g, '_').replace(/^(?![A-Za-z_])/, '_') });
  }

  // eslint-disable-next-line require-yield
  protected override async *runAsyncImpl(): AsyncGenerator<Event, void> {
    throw new InvalidRequestError(
      `This session is a copy in this browser, and its agent, the ADK server's app "${this.appName}", answers only in its own sessions: choose an agent of this browser in the Agent select to go on here, or start a new session with the app`,
    );
  }
}
