// The side of the workbench beside the open session: its flow (when it runs one), History, State,
// Artifacts and the event log. App.tsx decides what they show; this lays them out.

import { ArtifactsPanel } from '../state/ArtifactsPanel.tsx';
import { EventLog } from '../history/EventLog.tsx';
import type { FlowProgress } from '../history/checkpoints-model.ts';
import { FlowPanel } from '../flows/FlowPanel.tsx';
import { HistoryPanel, type SessionLink } from '../history/HistoryPanel.tsx';
import type { HistoryRow } from '../history/history-model.ts';
import type { SessionFlow } from '../workbench/open-session-model.ts';
import type { SessionView } from '../workbench/session-view.ts';
import type { WorkbenchState } from '../workbench/workbench-state.ts';
import { StatePanel } from '../state/StatePanel.tsx';
import type { AppActions } from './app-actions.ts';

interface Props {
  current: WorkbenchState['current'];
  session: SessionView | undefined;
  state: WorkbenchState;
  actions: AppActions;
  /** A run here or in another tab: nothing that changes the session. */
  locked: boolean;
  /** A session on an ADK server: its traces and state edits are there, not here. */
  remote: boolean;
  shownFlow: SessionFlow | undefined;
  progress: FlowProgress;
  focusNode: string | undefined;
  historyRows: HistoryRow[];
  historyLinks: SessionLink[];
  onOpenSession: (id: string) => void;
  onTrace: (invocationId: string) => void;
}

export function SidePanels(props: Props) {
  const { current, session, state, actions, locked, remote, shownFlow } = props;
  return (
    <aside class="side">
      {shownFlow && (
        <FlowPanel
          shown={shownFlow}
          progress={props.progress}
          waiting={(session?.approvals.length ?? 0) + (session?.inputs.length ?? 0) > 0}
          focus={props.focusNode}
        />
      )}
      <HistoryPanel
        rows={props.historyRows}
        compactions={session?.compactions}
        links={props.historyLinks}
        onOpenSession={props.onOpenSession}
        earlier={session?.earlierTurns ?? false}
        onShowEarlier={actions.showEarlierTurns}
        selectedId={state.selectedTurnId}
        disabled={locked}
        onSelect={actions.selectTurn}
        onRewind={actions.rewind}
        onSwitchBranch={actions.switchToBranch}
        onEdit={actions.edit}
        onFork={actions.fork}
        {...(remote
          ? {}
          : {
              onTrace: props.onTrace,
              onLoadStateBefore: actions.stateBefore,
              onEditStateAndRerun: actions.editStateAndRerun,
            })}
      />
      <StatePanel
        // An edit under way belongs to the session it started in.
        key={current?.summary.id}
        groups={session?.state ?? EMPTY}
        state={current?.state ?? NO_STATE}
        editable={!!current && !remote}
        disabled={locked}
        onEdit={actions.editState}
        loadValue={actions.stateValue}
      />
      <ArtifactsPanel
        // A file shown in one session is not shown in the next one opened.
        key={current?.summary.id}
        artifacts={current?.artifacts ?? EMPTY}
        onLoad={actions.loadArtifact}
      />
      <EventLog
        eventCount={current?.eventCount ?? 0}
        pages={state.log}
        focusId={state.logFocus}
        onOpen={actions.openLog}
        onShowEarlier={actions.showEarlierLog}
      />
    </aside>
  );
}

const EMPTY: never[] = [];
const NO_STATE: Readonly<Record<string, unknown>> = {};
