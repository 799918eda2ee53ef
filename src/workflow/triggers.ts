// Which nodes of a workflow run next, as ADK 2.0 decides it: START's edges give the first nodes
// the workflow's input; a node that finishes triggers the nodes its edges lead to (for the route
// it chose) with its output, each trigger one run; a fan-out puts each on a branch of its own;
// a join (JoinNode) runs once all its predecessors finished, with their outputs by name. Flows
// decide it their own way (src/flows/flow-frontier.ts); the rest of a run is graph-run.ts's.

import type { Graph } from './graph.ts';
import type { NodeContext } from './node-context.ts';

/** A node run to start: which node, with what input, on which branch. */
export interface NodeStart {
  name: string;
  input: unknown;
  /** Whether it runs on a branch of its own (`name@run`), when `branch` does not say. */
  useSubBranch: boolean;
  branch?: string | undefined;
}

/** What a frontier may ask of the run: where each node stands. */
export interface RunView {
  /** A node started and not finished, or waiting for an answer. */
  isBusy(name: string): boolean;
  isCompleted(name: string): boolean;
  outputOf(name: string): unknown;
  branchOf(name: string): string;
  /** Whether a node waits for an answer (the run is paused). */
  isPaused(): boolean;
  /** How many more nodes may start now (`maxConcurrency`; Infinity without one). */
  room(): number;
}

/** Decides which nodes run next: the scheduling half of a graph run. */
export interface Frontier {
  /** Run in rounds: every node of a round finishes before the next round starts. */
  readonly rounds: boolean;
  /** The node runs to start now. */
  take(run: RunView): NodeStart[];
  /** A node finished (with an output, or a route): what it leads to. */
  finished(name: string, child: NodeContext, run: RunView): void;
}

export class Triggers implements Frontier {
  readonly rounds = false;
  private readonly pending = new Map<string, Omit<NodeStart, 'name'>[]>();

  constructor(
    private readonly graph: Graph,
    input: unknown,
  ) {
    const starts = graph.edges.filter((e) => e.fromNode.name === '__START__');
    for (const edge of starts)
      this.push(edge.toNode.name, { input, useSubBranch: starts.length > 1 });
  }

  take(run: RunView): NodeStart[] {
    const starts: NodeStart[] = [];
    for (const name of [...this.pending.keys()]) {
      if (run.isBusy(name)) continue;
      if (starts.length >= run.room()) break;
      const trigger = this.pop(name);
      if (trigger) starts.push({ name, ...trigger });
    }
    return starts;
  }

  finished(name: string, child: NodeContext, run: RunView): void {
    const next = this.graph.next(name, child.route);
    for (const target of next) {
      const targetNode = this.graph.node(target);
      if (!targetNode.requiresAllPredecessors) {
        this.push(target, {
          input: child.output,
          useSubBranch: next.length > 1,
          branch: child.branch,
        });
        continue;
      }
      const predecessors = this.graph.predecessors(target);
      if (!predecessors.every((p) => run.isCompleted(p))) continue;
      const input: Record<string, unknown> = {};
      for (const p of predecessors) input[p] = run.outputOf(p);
      const common = commonBranch(predecessors.map((p) => run.branchOf(p)));
      this.push(target, { input, useSubBranch: false, branch: common || undefined });
    }
  }

  private push(name: string, trigger: Omit<NodeStart, 'name'>): void {
    const list = this.pending.get(name);
    if (list) list.push(trigger);
    else this.pending.set(name, [trigger]);
  }

  private pop(name: string): Omit<NodeStart, 'name'> | undefined {
    const list = this.pending.get(name);
    const trigger = list?.shift();
    if (list && list.length === 0) this.pending.delete(name);
    return trigger;
  }
}

/** The longest common dotted prefix of branches (ADK's `commonPrefixOf`). */
function commonBranch(branches: readonly string[]): string {
  if (branches.length === 0) return '';
  const split = branches.map((b) => (b ? b.split('.') : []));
  const common: string[] = [];
  for (let i = 0; i < Math.min(...split.map((s) => s.length)); i++) {
    const segment = split[0]![i]!;
    if (!split.every((s) => s[i] === segment)) break;
    common.push(segment);
  }
  return common.join('.');
}
