// A range of a session's active turns, as an export takes it: from one turn of the active
// conversation to another, both included, named by their invocation ids (which stay what they
// are when turns are added or rewound; positions would not). The page's renderers and the
// worker's range of JSON pick the same turns with it.

import type { BranchTree, Turn } from './branch-tree.ts';
import { InvalidRequestError } from './errors.ts';

export interface TurnRange {
  /** The invocation id of the first turn. */
  from: string;
  /** The invocation id of the last turn. */
  to: string;
}

/** Where a range lies in the active conversation: its first and last turn, counted from 1. */
export interface RangePlace {
  first: number;
  last: number;
  /** The turns of the active conversation. */
  of: number;
}

/**
 * The active turns from `range.from` to `range.to` (all of them without a range), with where
 * they are. A turn that is not on the active conversation (rewound since it was chosen, or never
 * there) or a range that ends before it starts is an InvalidRequestError.
 */
export function turnsInRange(
  tree: BranchTree,
  range?: TurnRange,
): { turns: Turn[]; place: RangePlace } {
  const path = tree.activePath;
  if (!range) {
    const turns = path.map((id) => tree.byId.get(id)!);
    return { turns, place: { first: 1, last: path.length, of: path.length } };
  }
  const from = path.indexOf(range.from);
  const to = path.indexOf(range.to);
  if (from < 0 || to < 0)
    throw new InvalidRequestError(
      'Those turns are not in the conversation as it is now (rewound since?): choose them again',
    );
  if (from > to)
    throw new InvalidRequestError('The range ends before it starts: choose its first turn first');
  return {
    turns: path.slice(from, to + 1).map((id) => tree.byId.get(id)!),
    place: { first: from + 1, last: to + 1, of: path.length },
  };
}
