// The built-in offline demo agents, as the app lists them.

import type { BaseAgent } from '../agents/base-agent.ts';
import { createStateKeeper } from './state-keeper.ts';
import { createHelpDesk } from './help-desk.ts';
import { createWritingWorkflow, type DemoTiming } from './writing-workflow.ts';

export interface AgentChoice {
  id: string;
  /** Shown in the Agent select. */
  name: string;
  description: string;
  create: (timing?: DemoTiming) => BaseAgent;
}

export const DEMO_AGENTS: readonly AgentChoice[] = [
  {
    id: 'state-keeper',
    name: 'State keeper (offline demo)',
    description:
      'Sets and reads session state, saves notes as artifacts. Deterministic rules, not an LLM.',
    create: (timing) => createStateKeeper({ chunkDelayMs: timing?.chunkDelayMs ?? 25 }),
  },
  {
    id: 'writing-workflow',
    name: 'Writing workflow (offline demo)',
    description:
      'Draft → critique and revise (a loop) → publish after your approval. Deterministic rules, not an LLM.',
    create: (timing) => createWritingWorkflow(timing),
  },
  {
    id: 'help-desk',
    name: 'Help desk (offline ADK 2.0 Workflow)',
    description:
      'An ADK 2.0 Workflow: triage routes to a desk, a reply and a ticket side by side, your review, send. Plain code, no model.',
    create: (timing) => createHelpDesk(timing),
  },
];

export const DEFAULT_AGENT_ID = 'state-keeper';
