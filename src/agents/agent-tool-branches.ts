// Where an agent called as a tool (src/tools/agent-tool.ts) keeps its events: a branch of its own
// in the caller's session, `<caller's branch>.<agent>#<call id>`, and who sees what across it.
//
// What must stay true:
// - a branch segment with `#` is made here only (agent names, ParallelAgent and workflow
//   segments never hold one), and a call id is cut to `[A-Za-z0-9_-]` so it adds no `.` or `#`;
// - an agent tool's run is a world of its own, as ADK's inner runner (a session of its own): no
//   event outside its branch is seen inside it, and none inside it is seen outside (the caller's
//   model gets the call's response only);
// - inside the run the branch plays the part of ADK's "no branch": its own branches (a
//   ParallelAgent in the tool's agent) follow the usual rule below it.

import type { Event } from '../core/event.ts';

/** The branch of agent `agentName` answering call `callId` of an agent on `callerBranch`. */
export function agentToolBranch(
  callerBranch: string | undefined,
  agentName: string,
  callId: string,
): string {
  const own = `${agentName}#${callId.replace(/[^A-Za-z0-9_-]/g, '_')}`;
  return callerBranch ? `${callerBranch}.${own}` : own;
}

/** The agent tool run a branch is in: its branch, or '' outside any. */
export function agentToolScope(branch: string | undefined): string {
  if (!branch) return '';
  const mark = branch.lastIndexOf('#');
  if (mark < 0) return '';
  const end = branch.indexOf('.', mark);
  return end < 0 ? branch : branch.slice(0, end);
}

/** Whether an event on `eventBranch` is visible to an agent running on `branch`. */
export function isOnBranch(branch: string | undefined, eventBranch: string | undefined): boolean {
  const scope = agentToolScope(branch);
  if (scope !== agentToolScope(eventBranch)) return false;
  const own = below(branch, scope);
  const theirs = below(eventBranch, scope);
  if (!own || !theirs) return true;
  return own === theirs || own.startsWith(`${theirs}.`);
}

/** `branch` seen from inside `scope` ('' for the scope itself). */
function below(branch: string | undefined, scope: string): string {
  if (!branch || !scope) return branch ?? '';
  return branch.length === scope.length ? '' : branch.slice(scope.length + 1);
}

/**
 * The message that starts an agent tool's run (its `request`): stored on the tool's branch by the
 * caller, it is the user's words to the agents inside, as ADK's inner runner's new message.
 */
export function isAgentToolRequest(event: Event): boolean {
  return agentToolRequestCall(event) !== undefined;
}

/** The call id an agent tool's request message answers, if it is one. */
export function agentToolRequestCall(event: Event): string | undefined {
  const trellis = event.customMetadata?.trellis as { agentToolRequest?: unknown } | undefined;
  return typeof trellis?.agentToolRequest === 'string' ? trellis.agentToolRequest : undefined;
}
