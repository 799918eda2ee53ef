import type { PendingDelete, PendingDeletes } from './pending-deletes.ts';
import { useSnapshot } from '../workbench/use-snapshot.ts';

interface Props {
  pending: PendingDeletes;
  /** After an Undo: a session comes back open. */
  onUndone: (item: PendingDelete) => void;
}

/**
 * What was just deleted, each with its Undo for a few seconds and a Dismiss that deletes it now.
 * A live region that is always there, so that each line is announced as it comes.
 */
export function UndoBar({ pending, onUndone }: Props) {
  const { items } = useSnapshot(pending);
  return (
    <div
      class="undo-bar"
      role="status"
      onPointerEnter={() => pending.hold(true)}
      onPointerLeave={() => pending.hold(false)}
      // The keyboard's focus holds (the user is on Undo); the focus Delete hands it after a click
      // does not (not :focus-visible), or a mouse user's delete would wait for their next click.
      onFocusIn={(event) => {
        if ((event.target as Element).matches(':focus-visible')) pending.hold(true);
      }}
      onFocusOut={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) pending.hold(false);
      }}
    >
      {items.filter(firstOfGroup).map((item) => (
        <p key={`${item.kind} ${item.id}`} class="undo-item">
          <span>{item.said}</span>
          <button
            type="button"
            class="undo"
            onClick={() => {
              pending.undo(item.kind, item.id);
              onUndone(item);
            }}
          >
            Undo
          </button>
          <button
            type="button"
            class="quiet"
            aria-label={`Dismiss: ${item.said}`}
            title="Delete it now"
            onClick={() => pending.finish(item.kind, item.id)}
          >
            ×
          </button>
        </p>
      ))}
    </div>
  );
}

/** One line for a group deleted together (a selection): its first item stands for it. */
function firstOfGroup(item: PendingDelete, index: number, items: readonly PendingDelete[]) {
  return (
    item.group === undefined || items.findIndex((other) => other.group === item.group) === index
  );
}
