// The History panel: the branch tree as rows. The conversation reads top to bottom without
// indentation; at a fork, the branches that left it are shown first, indented one step (and
// dimmed when abandoned), then the conversation goes on where it was.

import type { BranchTree, Turn } from '../core/branch-tree.ts';

export interface HistoryRow {
  turn: Turn;
  /** How many forks deep this turn's branch is. */
  indent: number;
  /** The first turn of a branch that forked off its parent. */
  startsBranch: boolean;
}

/** Rows in reading order; iterative, so that a conversation of thousands of turns is fine. */
export function historyRows(tree: BranchTree): HistoryRow[] {
  const rows: HistoryRow[] = [];
  const stack: HistoryRow[] = [];
  const pushSiblings = (ids: readonly string[], indent: number) => {
    const turns = ids.map((id) => tree.byId.get(id)!);
    const main = turns.find((turn) => turn.active) ?? turns.at(-1);
    // Popped in reverse: side branches (log order) first, then the conversation's continuation.
    if (main) stack.push({ turn: main, indent, startsBranch: false });
    for (let i = turns.length - 1; i >= 0; i--) {
      if (turns[i] !== main)
        stack.push({ turn: turns[i]!, indent: indent + 1, startsBranch: true });
    }
  };
  pushSiblings(tree.rootIds, 0);
  while (stack.length > 0) {
    const row = stack.pop()!;
    rows.push(row);
    pushSiblings(row.turn.childIds, row.indent);
  }
  return rows;
}
