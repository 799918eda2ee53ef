// Where a flow run stands: the nodes waiting to run (tokens), which of them may run now, and on
// which branch. Pure: a flow's frontier on the workflow engine uses it (flow-frontier.ts).
//
// What must stay true:
// - a node reached over several unconditional edges at once runs once per arrival set: tokens at
//   the same node merge (a join), on the branch the arriving branches share;
// - a token waits while another waiting token, or a node still running, can reach its node (so a
//   join runs only once every parallel branch that leads to it has arrived, on resume too); if
//   every token waits on another (a cycle through a loop), they all run;
// - parallel branches get their own branch name (`<flow>.<node>`, nested under the branch the
//   fan-out happened on), so an agent on one never sees another's events.

export interface FlowToken {
  node: string;
  /** The branch the node runs on; `undefined` on the flow's own branch. */
  branch?: string;
  /** The output of the node that led here (`{{output}}` in its instruction or rules). */
  input?: unknown;
}

/** Successor lookup: every node reachable from `from` (edges and loop jumps). */
export type Reachability = (from: string, to: string) => boolean;

/** The transitive closure of the graph, as a function. */
export function reachability(successors: ReadonlyMap<string, readonly string[]>): Reachability {
  const reach = new Map<string, Set<string>>();
  const visit = (start: string): Set<string> => {
    let seen = reach.get(start);
    if (seen) return seen;
    seen = new Set();
    const stack = [...(successors.get(start) ?? [])];
    while (stack.length > 0) {
      const node = stack.pop()!;
      if (seen.has(node)) continue;
      seen.add(node);
      stack.push(...(successors.get(node) ?? []));
    }
    reach.set(start, seen);
    return seen;
  };
  return (from, to) => visit(from).has(to);
}

/** Tokens at the same node merged into one (a join), in first-arrival order. */
export function mergeTokens(tokens: readonly FlowToken[], base: string | undefined): FlowToken[] {
  const byNode = new Map<string, FlowToken[]>();
  for (const token of tokens) {
    const list = byNode.get(token.node);
    if (list) list.push(token);
    else byNode.set(token.node, [token]);
  }
  return [...byNode.values()].map((arrivals) =>
    arrivals.length === 1
      ? arrivals[0]!
      : {
          node: arrivals[0]!.node,
          ...branchField(sharedBranch(arrivals, base)),
          input: arrivals.map((token) => token.input),
        },
  );
}

/**
 * The tokens that may run now (see the invariants above). `running` are nodes that run this round
 * anyway (a resumed run's nodes cut off mid-way): a token they can reach waits for them too.
 */
export function readyTokens(
  tokens: readonly FlowToken[],
  reach: Reachability,
  running: readonly FlowToken[] = [],
): FlowToken[] {
  const others = [...tokens, ...running];
  const ready = tokens.filter(
    (token) => !others.some((other) => other.node !== token.node && reach(other.node, token.node)),
  );
  // Every waiting token waits on another: a cycle, unless running nodes are what they wait on.
  return ready.length > 0 || running.length > 0 ? ready : [...tokens];
}

/**
 * The tokens for the nodes a node leads to: one successor keeps the branch; several run in
 * parallel, each on a branch of its own under the current one.
 */
export function successorTokens(
  from: FlowToken,
  targets: readonly string[],
  output: unknown,
  root: string,
): FlowToken[] {
  if (targets.length === 1) {
    return [{ node: targets[0]!, ...branchField(from.branch), input: output }];
  }
  return targets.map((node) => ({
    node,
    branch: `${from.branch ?? root}.${node}`,
    input: output,
  }));
}

/** The longest branch the arrivals share; the flow's own branch (`base`) at least. */
function sharedBranch(tokens: readonly FlowToken[], base: string | undefined): string | undefined {
  const paths = tokens.map((token) => (token.branch ?? '').split('.'));
  const shared: string[] = [];
  for (let i = 0; paths.every((path) => path[i] !== undefined && path[i] === paths[0]![i]); i++) {
    shared.push(paths[0]![i]!);
  }
  const minimum = base ? base.split('.').length + 1 : 1;
  // `<base>.<flow>` alone is the flow's own level, not a branch of it.
  return shared.length > minimum && shared[0] !== '' ? shared.join('.') : base;
}

function branchField(branch: string | undefined): { branch?: string } {
  return branch ? { branch } : {};
}
