// How a flow decides which of its nodes run next, and how its own events tell its node runs:
// the two things that make a flow's run its own on the workflow engine (src/workflow/graph-run.ts,
// which does the rest: running nodes side by side, pausing, resuming from the log, failing).
//
// - Rounds: the nodes ready together run together, and all finish before the next round.
// - A node reached over several edges at once runs once per arrival set, on the branch the
//   arriving branches share, and waits while another waiting or running node can still reach it
//   (frontier.ts's rules); parallel branches are named `<flow>.<node>`.
// - What a node run leads to is the list of its targets (its route), in its edges' order.
// - Its runs are read from the flow's checkpoint and completion events (flow-events.ts) and its
//   agents' own events (authored by their node), so a run stored before flows ran on the workflow
//   engine resumes on it too.

import type { Event } from '../core/event.ts';
import type { NodeContext } from '../workflow/node-context.ts';
import type { RunMark, RunReading } from '../workflow/node-runs.ts';
import type { Frontier, NodeStart, RunView } from '../workflow/triggers.ts';
import { checkpointOf, completionOf } from './flow-events.ts';
import {
  mergeTokens,
  readyTokens,
  successorTokens,
  type FlowToken,
  type Reachability,
} from './frontier.ts';

export class FlowFrontier implements Frontier {
  readonly rounds = true;
  private waiting: FlowToken[];
  /** The token each node of the current round runs with. */
  private readonly started = new Map<string, FlowToken>();

  constructor(
    private readonly reach: Reachability,
    start: string,
    /** The branch the flow itself runs on. */
    private readonly base: string | undefined,
    /** What parallel branches are named under (`<base>.<flow>`, or the flow's name). */
    private readonly root: string,
    /** Whether the run must stop taking nodes (a node paused, or the invocation ends). */
    private readonly stopped: () => boolean,
  ) {
    this.waiting = [{ node: start }];
  }

  take(run: RunView): NodeStart[] {
    // A node that paused stops the flow after its round: the answer resumes it.
    if (run.isPaused() || this.stopped()) return [];
    const tokens = mergeTokens(this.waiting, this.base);
    const ready = readyTokens(tokens, this.reach);
    this.waiting = tokens.filter((token) => !ready.includes(token));
    this.started.clear();
    return ready.map((token) => {
      this.started.set(token.node, token);
      return { name: token.node, input: token.input, useSubBranch: false, branch: token.branch };
    });
  }

  finished(name: string, child: NodeContext): void {
    // The tokens the node's completion recorded (live, or read back on resume), with its output.
    if (Array.isArray(child.next)) {
      for (const next of child.next as FlowToken[])
        this.waiting.push({ ...next, input: child.output });
      return;
    }
    const token = this.started.get(name) ?? { node: name };
    const route = child.route;
    const targets = (route === undefined ? [] : Array.isArray(route) ? route : [route]).map(String);
    this.waiting.push(...successorTokens(token, targets, child.output, this.root));
  }
}

/** How a flow's events tell its node runs (see the notes above). */
export function flowReading(flowName: string, nodeIds: ReadonlySet<string>): RunReading {
  const pathOf = (node: string) => `${flowName}.${node}`;
  return {
    pathOf(event: Event): string | undefined {
      if (event.author === flowName) {
        const node = checkpointOf(event)?.current_node ?? completionOf(event)?.completed_node;
        return node === undefined ? undefined : pathOf(node);
      }
      return nodeIds.has(event.author) ? pathOf(event.author) : undefined;
    },
    markOf(event: Event): RunMark {
      if (event.author !== flowName) return {};
      if (checkpointOf(event)) return { starts: true };
      const completion = completionOf(event);
      if (!completion) return {};
      return {
        route: completion.next.map((token) => token.node),
        next: completion.next,
        ...(completion.output !== undefined ? { output: completion.output } : {}),
      };
    },
  };
}
