// The chat header's context meter, in the worker: how many tokens the session's next request
// would hold, by ADK's rule (the latest prompt token count the model reported on the events it
// sees, else about four characters a token: src/context/token-count.ts), against the window of
// the session's agent when the app knows it (agents/compaction.ts).
//
// What must stay true: it costs what an opening costs, not what the log holds. The latest count
// is nearly always among the last events, so the end of the active conversation is read first;
// the whole active conversation only for a session with no count there and more before it (a
// model that reports no usage), whose estimate needs every message.

import {
  activeEvents,
  contextEvents,
  estimateContextTokens,
  latestPromptTokenCount,
  SessionNotFoundError,
  type Event,
  type IndexedDbSessionService,
} from '../../src/index.ts';
import { compactionThreshold, type ContextUse } from '../../src/models/context-windows.ts';
import { agentContextOf, agentWindow, type AgentContext } from '../agents/compaction.ts';
import { FLOW_PREFIX } from '../flows/flows.ts';
import { isSpecAgent, SPEC_PREFIX } from '../agents/agent-specs.ts';
import type { IndexedDbAppStore } from '../../src/store/app-store.ts';
import type { AppProviders } from '../providers.ts';
import { APP_NAME, USER_ID } from './sessions.ts';

type MeterAgent = Pick<AgentContext, 'window' | 'compacts'> & { agentName?: string | undefined };

/**
 * What the meter knows of the session's agent `agentId`: an agent of the builder's name, window
 * and compaction; a user's flow, the window of its start node's model (a provider's: its nodes
 * compact on it, workers/agents/compaction.ts `flowCompactors`); any other (a demo, an example
 * flow on the demo model, a deleted agent) nothing: the count alone.
 */
export async function agentContextFor(
  store: IndexedDbAppStore,
  providers: AppProviders,
  agentId: string,
): Promise<MeterAgent> {
  const known = isSpecAgent(agentId)
    ? await agentContextOf(store, providers, agentId.slice(SPEC_PREFIX.length))
    : agentId.startsWith(FLOW_PREFIX)
      ? await flowContextOf(store, providers, agentId.slice(FLOW_PREFIX.length))
      : undefined;
  return known ?? { window: undefined, compacts: false };
}

async function flowContextOf(
  store: IndexedDbAppStore,
  providers: AppProviders,
  flowId: string,
): Promise<MeterAgent | undefined> {
  const start = (await store.getFlow(flowId))?.flow.nodes.find((node) => node.type === 'start');
  const name = start?.type === 'start' ? start.model : undefined;
  if (!name) return undefined;
  // A provider whose key is locked away builds no model now: the count alone, then.
  const built = await providers.flowModels([name]).catch(() => undefined);
  const model = built?.models[name];
  const source = model && providers.flowModelSource(model);
  const window = source && agentWindow(providers, source.provider, source.model);
  return window ? { window, compacts: true } : undefined;
}

/** The end of the active conversation read first. */
const TAIL = 200;

/**
 * The session's context against its agent's window (`agent`: undefined for an agent whose
 * window the app does not judge, a flow's or a demo's: then the count alone).
 */
export async function sessionContextUse(
  sessions: IndexedDbSessionService,
  sessionId: string,
  agent: MeterAgent,
): Promise<ContextUse> {
  const key = { appName: APP_NAME, userId: USER_ID, sessionId };
  const summary = await sessions.getSessionSummary({ ...key, numActiveEvents: TAIL, numTurns: 0 });
  if (!summary) throw new SessionNotFoundError(sessionId);
  let active: readonly Event[] = summary.activeTail.map(({ event }) => event);
  let counted = latestPromptTokenCount(contextEvents(active));
  if (counted === undefined && !summary.activeComplete) {
    const whole = await sessions.getSession(key);
    if (!whole) throw new SessionNotFoundError(sessionId);
    active = activeEvents(whole.events);
    counted = latestPromptTokenCount(contextEvents(active));
  }
  const tokens = counted ?? estimateContextTokens(active, agent.agentName ?? lastAuthor(active));
  const { window } = agent;
  return {
    tokens,
    counted: counted !== undefined,
    ...(window ? { window } : {}),
    ...(window && agent.compacts ? { compactAt: compactionThreshold(window) } : {}),
  };
}

/** The agent that spoke last: the model's own events are its (a flow's, a demo's). */
function lastAuthor(active: readonly Event[]): string {
  for (let i = active.length - 1; i >= 0; i--)
    if (active[i]!.author !== 'user') return active[i]!.author;
  return 'agent';
}
