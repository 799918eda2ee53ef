// The agents a session can talk to (the demo agents, the example flows, the user's flows, the
// agents of the agent builder) and one runner per agent id. A flow's or a built agent's runner is
// built from its definition as stored when it was built; once that changes (an edit saved in
// this tab or another, a provider's new key), the next run builds a new one.

import { DEMO_AGENTS } from '../src/demos/index.ts';
import type { DemoTiming } from '../src/demos/writing-workflow.ts';
import { InvalidRequestError, type BaseAgent, type Runner } from '../src/index.ts';
import { agentChoice } from './app-sessions.ts';
import { isFlowAgent, type AgentSource, type AppFlows } from './app-flows.ts';
import { isSpecAgent, type AppAgentSpecs } from './app-agent-specs.ts';
import type { AgentInfo } from './protocol.ts';
import { attachmentPolicy } from '../src/models/attachments.ts';

export class AppAgents {
  private readonly runners = new Map<string, { version: string; runner: Runner }>();

  constructor(
    private readonly flows: AppFlows,
    /** The demo pace now in force (a setting: it can change between runs). */
    private readonly timing: () => Promise<DemoTiming | undefined>,
    private readonly newRunner: (agent: BaseAgent, resumable: boolean) => Runner,
    private readonly specs: AppAgentSpecs,
  ) {}

  /** The demo agents, then the example flows, then the user's flows, then the user's agents. */
  async list(): Promise<AgentInfo[]> {
    const demos = DEMO_AGENTS.map(({ id, name, description }) => ({
      id,
      name,
      description,
      kind: 'demo' as const,
      attachments: attachmentPolicy('demo'),
    }));
    const [flows, specs] = await Promise.all([this.flows.agentInfos(), this.specs.agentInfos()]);
    return [...demos, ...flows, ...specs];
  }

  async knows(agentId: string): Promise<boolean> {
    if (isFlowAgent(agentId)) return this.flows.exists(agentId);
    if (isSpecAgent(agentId)) return this.specs.exists(agentId);
    return DEMO_AGENTS.some((agent) => agent.id === agentId);
  }

  /** Whether the agent's runs are offered for resuming (a built agent may say no). */
  async resumable(agentId: string): Promise<boolean> {
    return isSpecAgent(agentId) ? this.specs.resumable(agentId) : true;
  }

  /** InvalidRequestError unless the agent exists. */
  async check(agentId: string): Promise<void> {
    if (!(await this.knows(agentId))) throw new InvalidRequestError(`There is no agent ${agentId}`);
  }

  /** The agent's runner; a deleted flow is an InvalidRequestError saying so. */
  async runner(agentId: string): Promise<Runner> {
    const [source, timing] = await Promise.all([this.source(agentId), this.timing()]);
    const version = `${source.version} ${JSON.stringify(timing ?? null)}`;
    const cached = this.runners.get(agentId);
    if (cached?.version === version) return cached.runner;
    const runner = this.newRunner(source.create(timing), source.resumable ?? true);
    this.runners.set(agentId, { version, runner });
    return runner;
  }

  private async source(agentId: string): Promise<AgentSource & { resumable?: boolean }> {
    if (isFlowAgent(agentId)) return this.flows.source(agentId);
    if (isSpecAgent(agentId)) return this.specs.source(agentId);
    const choice = agentChoice(agentId);
    return { version: 'demo', create: (timing) => choice.create(timing) };
  }
}
