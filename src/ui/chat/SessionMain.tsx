import type { ComponentChildren } from 'preact';
import { useMemo, useState } from 'preact/hooks';
import { CHAT_SETTINGS_KEY, MODEL_CHAT_ID, type AgentInfo } from '../../../workers/protocol.ts';
import type { AttachmentPolicy } from '../../models/attachments.ts';
import type { AppActions } from '../shell/app-actions.ts';
import { showApprovals } from '../shell/app-actions.ts';
import { Approvals } from './Approvals.tsx';
import { Chat } from './Chat.tsx';
import type { MessageContext } from './ChatMessage.tsx';
import type { CheckpointRow } from '../history/checkpoints-model.ts';
import { CheckpointsPanel } from '../history/CheckpointsPanel.tsx';
import { Composer, type EditTarget } from './Composer.tsx';
import { InputRequests } from './InputRequests.tsx';
import { StartForm } from './StartForm.tsx';
import { startFormOf } from './start-form-model.ts';
import { lazy } from '../common/lazy.tsx';
import {
  placeholderFor,
  questionWaiting,
  waitingApprovals,
  waitingInputs,
} from '../workbench/open-session-model.ts';
import { RewindNote } from './RewindNote.tsx';
import { SessionBar } from '../sessions/SessionBar.tsx';
import type { SessionView } from '../workbench/session-view.ts';
import type { TurnRun } from './turn-run-model.ts';
import { sessionUsageText } from '../common/usage-format.ts';
import { useModelLoads } from './use-model-loads.ts';
import type { WorkbenchState } from '../workbench/workbench-state.ts';
import { workflowOf } from '../flows/workflow-progress.ts';

// Shown on demand, so they stay out of the first chunk: a chat with a model's settings, Share.
const ChatSettingsBar = lazy(() => import('./ChatSettingsBar.tsx').then((m) => m.ChatSettingsBar), {
  fallback: null,
});
const ExportMenu = lazy(() => import('../export/ExportMenu.tsx').then((m) => m.ExportMenu), {
  fallback: null,
});
// Shown above a session on an ADK server only.
const RemoteBar = lazy(() => import('../remote/RemoteBar.tsx').then((m) => m.RemoteBar));

interface Props {
  state: WorkbenchState;
  actions: AppActions;
  /** What the panels derive from the open session (none open: undefined). */
  session: SessionView | undefined;
  /** The open session's agent. */
  agent: AgentInfo | undefined;
  /** A run holds the open session (here or in another tab). */
  locked: boolean;
  /** A flow session's checkpoints, and whether they show in place of the chat. */
  checkpoints: CheckpointRow[];
  checkpointsOpen: boolean;
  onCheckpoints: (open: boolean) => void;
  /** ↑ in the empty message box: edits the last message in place. */
  onStartEdit: (target: EditTarget) => void;
  messageContext: MessageContext;
  /** The last turn's unfinished run (its Continue, Retry or Resume in the chat). */
  unfinished: TurnRun | undefined;
  onOpenSession: (sessionId: string) => void;
  onShowNode: (nodeId: string) => void;
  /** Shown above the chat (the first-run card). */
  intro?: ComponentChildren;
}

/** The open session in the main area: its chat (or checkpoints), what waits, and the composer. */
export function SessionMain({ state, actions, session, agent, locked, ...props }: Props) {
  const { current, running, busyElsewhere, answered } = state;
  const agentId = current?.summary.agentId;
  // A flow or an ADK 2.0 workflow (here, or on an ADK server): the Chat / Checkpoints switch
  // (its node runs).
  const flow = !!(agent?.flow || agent?.workflow || (session && workflowOf(session.active)));
  const remote = !!current?.summary.remote;
  const approvals = session && waitingApprovals(session.approvals, answered);
  const loads = useModelLoads(actions.localModelLoads, running && !state.streaming);
  // A flow that starts from a form shows it in place of the message box, unless the user chose
  // to type in this session; an edit is text, in the message's editor (the worker reads a form
  // turn's values back from it).
  const form = useMemo(() => startFormOf(agent?.flow), [agent?.flow]);
  const [typingIn, setTypingIn] = useState<string>();
  // A chat with a model takes the files of its own provider (its settings bar says which).
  const [chatPolicy, setChatPolicy] = useState<AttachmentPolicy>();
  const sessionId = current?.summary.id;
  const showsForm = !!form && typingIn !== sessionId;
  const blocked = !state.ready || busyElsewhere || !current || state.opening;
  const approvalsWaiting = approvals?.length ?? 0;
  const questionAsked = questionWaiting(session?.inputs ?? EMPTY, answered);
  return (
    <>
      <SessionBar
        title={current?.summary.title}
        usageText={sessionUsageText(state.usage)}
        context={state.context}
        flow={flow}
        checkpointsOpen={props.checkpointsOpen}
        onCheckpoints={props.onCheckpoints}
        share={
          current &&
          !remote && (
            <ExportMenu
              sessionId={current.summary.id}
              onExport={actions.exportAs}
              loadTurns={actions.exportTurns}
            />
          )
        }
      />
      {current && agentId === MODEL_CHAT_ID && (
        <ChatSettingsBar
          sessionId={current.summary.id}
          stored={current.state[CHAT_SETTINGS_KEY]}
          disabled={locked}
          actions={actions}
          onPolicy={setChatPolicy}
        />
      )}
      {current?.summary.remote && (
        <RemoteBar
          key={current.summary.id}
          remote={current.summary.remote}
          disabled={locked}
          onCopy={actions.copyToBrowser}
          onOpen={props.onOpenSession}
          loadTrace={actions.remoteTrace}
        />
      )}
      {approvals && (
        <Approvals
          approvals={approvals}
          authors={props.messageContext.authors}
          disabled={locked}
          onAnswer={actions.answer}
          // Policies apply to the tools of the agent builder's agents and of flows.
          {...(agentId && /^(agent|flow|example):/.test(agentId)
            ? { onAllowAlways: actions.allowAlways }
            : {})}
        />
      )}
      {session && (
        <InputRequests
          requests={waitingInputs(session.inputs, answered)}
          disabled={locked}
          onReply={actions.respond}
        />
      )}
      {props.intro}
      {flow && current && props.checkpointsOpen ? (
        <CheckpointsPanel
          rows={props.checkpoints}
          threadId={current.summary.id}
          // A session on an ADK server lists its node runs; its rewinds are the server's.
          disabled={locked || remote}
          onRewind={actions.rewindToCheckpoint}
          onShowNode={props.onShowNode}
        />
      ) : (
        <Chat
          items={session?.chat ?? EMPTY}
          sent={state.sent}
          runEventIds={state.runEventIds}
          streaming={state.streaming}
          stopped={state.stoppedText}
          waiting={state.waiting}
          unfinished={props.unfinished}
          onResumeTurn={actions.resumeTurn}
          running={running}
          loads={loads}
          context={props.messageContext}
          earlier={session?.earlierMessages ?? false}
          onShowEarlier={actions.showEarlierMessages}
        />
      )}
      {state.rewind && (
        <RewindNote said={state.rewind.said} disabled={locked} onUndo={actions.undoRewind} />
      )}
      {form && showsForm ? (
        <StartForm
          // Each session starts from an empty form.
          key={sessionId}
          form={form}
          running={running}
          disabled={blocked}
          approvalsWaiting={approvalsWaiting}
          questionWaiting={questionAsked}
          onSubmit={(text, values) => actions.send(text, [], values)}
          onTypeInstead={() => setTypingIn(sessionId)}
          onShowApprovals={showApprovals}
          onStop={actions.stop}
        />
      ) : (
        <Composer
          running={running}
          disabled={blocked}
          placeholder={placeholderFor(agentId)}
          policy={(agentId === MODEL_CHAT_ID && chatPolicy) || agent?.attachments}
          lastMessage={session?.lastMessage}
          returned={state.returned}
          approvalsWaiting={approvalsWaiting}
          questionWaiting={questionAsked}
          onSend={actions.send}
          onStartEdit={props.onStartEdit}
          onRejectAndSend={actions.rejectAndSend}
          onShowApprovals={showApprovals}
          onStop={actions.stop}
          {...(form ? { onUseForm: () => setTypingIn(undefined) } : {})}
        />
      )}
    </>
  );
}

const EMPTY: never[] = [];
