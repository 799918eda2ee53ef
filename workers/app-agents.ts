// The agents a session can talk to (the demo agents, the example flows, the user's flows) and
// one runner per agent id. A flow's runner is built from the flow as stored when it was built;
// once the flow changes (an edit saved in this tab or another), the next run builds a new one.

import { DEMO_AGENTS } from '../src/demos/index.ts';
import type { DemoTiming } from '../src/demos/writing-workflow.ts';
import { InvalidRequestError, type BaseAgent, type Runner } from '../src/index.ts';
import { agentChoice } from './app-sessions.ts';
import { isFlowAgent, type AgentSource, type AppFlows } from './app-flows.ts';
import type { AgentInfo } from './protocol.ts';

export class AppAgents {
  private readonly runners = new Map<string, { version: string; runner: Runner }>();

  constructor(
    private readonly flows: AppFlows,
    private readonly timing: DemoTiming | undefined,
    private readonly newRunner: (agent: BaseAgent) => Runner,
  ) {}

  /** The demo agents, then the example flows, then the user's flows. */
  async list(): Promise<AgentInfo[]> {
    const demos = DEMO_AGENTS.map(({ id, name, description }) => ({
      id,
      name,
      description,
      kind: 'demo' as const,
    }));
    return [...demos, ...(await this.flows.agentInfos())];
  }

  async knows(agentId: string): Promise<boolean> {
    return isFlowAgent(agentId)
      ? this.flows.exists(agentId)
      : DEMO_AGENTS.some((agent) => agent.id === agentId);
  }

  /** InvalidRequestError unless the agent exists. */
  async check(agentId: string): Promise<void> {
    if (!(await this.knows(agentId))) throw new InvalidRequestError(`There is no agent ${agentId}`);
  }

  /** The agent's runner; a deleted flow is an InvalidRequestError saying so. */
  async runner(agentId: string): Promise<Runner> {
    const source = await this.source(agentId);
    const cached = this.runners.get(agentId);
    if (cached?.version === source.version) return cached.runner;
    const runner = this.newRunner(source.create());
    this.runners.set(agentId, { version: source.version, runner });
    return runner;
  }

  private async source(agentId: string): Promise<AgentSource> {
    if (isFlowAgent(agentId)) return this.flows.source(agentId);
    const choice = agentChoice(agentId);
    return { version: 'demo', create: () => choice.create(this.timing) };
  }
}
