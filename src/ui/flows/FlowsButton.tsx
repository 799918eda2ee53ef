import type { FlowEditor } from './flow-editor.ts';
import { useSnapshot } from '../workbench/use-snapshot.ts';

/** The header's Flows button, which says when a flow has edits not saved. */
export function FlowsButton(props: { editor: FlowEditor; pressed: boolean; onClick: () => void }) {
  const { drafts } = useSnapshot(props.editor);
  const unsaved = Object.keys(drafts).length > 0;
  return (
    <button type="button" aria-pressed={props.pressed} onClick={props.onClick}>
      Flows
      {unsaved && (
        <span class="badge unsaved" title="A flow has edits not saved">
          draft
        </span>
      )}
    </button>
  );
}
