// What the App derives from the open session for its panels, beyond the session view: pure
// functions of the workbench's state.

import type { AgentInfo, SessionSummary } from '../../../workers/protocol.ts';
import { flowAgentName, type Flow } from '../../flows/flow.ts';
import type { CheckpointRow } from '../history/checkpoints-model.ts';
import type { PendingApproval } from '../chat/approvals-model.ts';
import type { ChatItem } from '../chat/chat-model.ts';
import type { SessionLink } from '../history/HistoryPanel.tsx';
import type { InputRequest } from '../chat/input-requests-model.ts';
import type { WorkflowGraph } from '../../workflow/graph-view.ts';

const PLACEHOLDERS: Record<string, string> = {
  'state-keeper': 'set color to red',
  'writing-workflow': 'A topic to write about, e.g. tea',
  'example:support': 'Is invoice INV-1042 paid?',
  'example:research-brief': 'A topic for a brief, e.g. solar panels',
};

/** The message box's hint: an example message for the agent, if it has one. */
/**
 * The names the chat shows for the authors of an agent's events: a built agent's and its
 * sub-agents' given names (`Trip planner` for `trip_planner`), a flow's nodes by their labels.
 * An author not named here shows as it is (its identifier).
 */
export function authorNames(agent: AgentInfo | undefined): ReadonlyMap<string, string> {
  const names = new Map(Object.entries(agent?.authors ?? {}));
  for (const node of agent?.flow?.nodes ?? []) {
    const label = typeof node.label === 'string' ? node.label.trim() : '';
    if (label && label !== node.id) names.set(node.id, label);
  }
  return names;
}

export function placeholderFor(agentId: string | undefined): string {
  return PLACEHOLDERS[agentId ?? ''] ?? 'Message';
}

/** A session in this browser with something in it (one only created has nothing). */
export const hasWork = (session: SessionSummary) =>
  !session.remote && session.lastUpdateTime > session.createdAt;

/** The id of the conversation's last message, if the agent said it (its Regenerate button). */
export function lastAnswerId(items: readonly ChatItem[] | undefined): string | undefined {
  const last = items?.findLast((item) => item.kind === 'message');
  return last?.kind === 'message' && !last.fromUser ? last.id : undefined;
}

/**
 * The ids of each turn's answer: its last message from an agent (the answer's versions show
 * there, as Regenerate's do).
 */
export function turnAnswerIds(items: readonly ChatItem[] | undefined): ReadonlySet<string> {
  const last = new Map<string, string>();
  for (const item of items ?? [])
    if (item.kind === 'message' && !item.fromUser) last.set(item.invocationId, item.id);
  return new Set(last.values());
}

/** A rewind into a new session on an ADK server links the two sessions, both ways. */
export function sessionLinks(
  current: SessionSummary,
  sessions: readonly SessionSummary[],
): SessionLink[] {
  const from = current.remote?.rewoundFrom;
  const into = sessions.filter((other) => other.remote?.rewoundFrom?.sessionId === current.id);
  return [
    ...(from ? [{ label: 'Rewound from', sessionId: from.sessionId, title: from.title }] : []),
    ...into.map((other) => ({ label: 'Rewound into', sessionId: other.id, title: other.title })),
  ];
}

/** The approvals still waiting: those answered in this run hide until the log has the answer. */
export function waitingApprovals(
  approvals: readonly PendingApproval[],
  answered: readonly string[],
): PendingApproval[] {
  return approvals.filter((approval) => !answered.includes(approval.requestId));
}

/** The questions and long-running calls still waiting for the user's reply. */
export function waitingInputs(
  inputs: readonly InputRequest[],
  answered: readonly string[],
): InputRequest[] {
  return inputs.filter((request) => !answered.includes(request.callId));
}

/** Whether the agent asked the user a question that waits for a reply. */
export function questionWaiting(
  inputs: readonly InputRequest[],
  answered: readonly string[],
): boolean {
  return inputs.some((input) => input.kind === 'question' && !answered.includes(input.callId));
}

/** The flow a session's Flow panel draws, and what it says beside it. */
export interface SessionFlow {
  /**
   * The flow its checkpoints are of (undefined when none here is: deleted, renamed), or the
   * graph of the ADK 2.0 workflow it talks to.
   */
  flow?: Flow | WorkflowGraph;
  /** The flow agent that wrote the checkpoints, for a flow that is no longer here. */
  ranOn?: string;
  /** The agent the next message goes to, when it is not the flow drawn. */
  next?: string;
}

/**
 * The flow a session ran, which its checkpoints are of (their author is the flow's agent), not
 * the one now chosen in the Agent select: the session's own agent when it is that flow, else a
 * flow of that agent name. With no checkpoints yet, the chosen agent's flow, if it is one.
 */
export function sessionFlow(
  agents: readonly AgentInfo[],
  agentId: string | undefined,
  checkpoints: readonly CheckpointRow[],
): SessionFlow | undefined {
  const chosen = agents.find((agent) => agent.id === agentId);
  const author = checkpoints.at(-1)?.author;
  if (author === undefined) return chosen?.flow ? { flow: chosen.flow } : undefined;
  const ranBy = (agent: AgentInfo | undefined) =>
    !!agent?.flow && flowAgentName(agent.flow.name) === author;
  const ran = ranBy(chosen) ? chosen : agents.find(ranBy);
  const next = ran === chosen || !chosen ? {} : { next: chosen.name };
  return ran?.flow ? { flow: ran.flow, ...next } : { ranOn: author, ...next };
}
