// Where an ADK 2.0 workflow's last run is, for its graph on the Flow panel: the nodes that
// finished (lit as visited), and those waiting for the user (current), read from the node paths
// of the active events (`support_desk.triage`, `support_desk.reply`…), a pure function.

import { functionResponsesOf } from '../../core/content.ts';
import type { Event } from '../../core/event.ts';
import type { FlowProgress } from '../history/checkpoints-model.ts';

/** The id the graph gives START (src/workflow/graph-view.ts). */
const START_ID = 'start';

export function workflowProgress(active: readonly Event[], workflowName: string): FlowProgress {
  const prefix = `${workflowName}.`;
  const nodeOf = (event: Event) => {
    const path = event.nodeInfo?.path;
    if (!path?.startsWith(prefix)) return undefined;
    return path.slice(prefix.length).split('.')[0]!.split('@')[0];
  };
  const last = active.findLast((event) => nodeOf(event) !== undefined);
  if (!last) return { invocationId: undefined, current: [], visited: [], running: false };
  const invocationId = last.invocationId;
  const ofRun = active.filter((event) => event.invocationId === invocationId);
  const answered = new Set(
    ofRun
      .filter((e) => e.author === 'user')
      .flatMap((e) => functionResponsesOf(e.content).map((r) => r.id)),
  );
  const visited = new Set<string>([START_ID]);
  const waiting = new Set<string>();
  for (const event of ofRun) {
    const node = nodeOf(event);
    if (!node) continue;
    const open = (event.longRunningToolIds ?? []).filter((id) => !answered.has(id));
    if (open.length > 0) waiting.add(node);
    else visited.add(node);
  }
  for (const node of waiting) visited.delete(node);
  return { invocationId, current: [...waiting], visited: [...visited], running: false };
}

/**
 * The workflow a session's events come from, by their node paths (the first name of the last
 * one's path): how the page knows a session on an ADK server runs a workflow, whose graph the
 * server does not give.
 */
export function workflowOf(active: readonly Event[]): string | undefined {
  const path = active.findLast((event) => event.nodeInfo?.path)?.nodeInfo?.path;
  return path ? path.split('.')[0] : undefined;
}
