import { useCallback, useEffect, useMemo, useState } from 'preact/hooks';
import type { AgentBuilder } from './agent-builder.ts';
import { AgentSelect } from './AgentSelect.tsx';
import { actionsOf, showApprovals } from './app-actions.ts';
import { Announcer } from './Announcer.tsx';
import { Approvals } from './Approvals.tsx';
import { InputRequests } from './InputRequests.tsx';
import { ArtifactsPanel } from './ArtifactsPanel.tsx';
import { Chat } from './Chat.tsx';
import { flowProgress } from './checkpoints-model.ts';
import { CheckpointsPanel } from './CheckpointsPanel.tsx';
import { Composer, type EditTarget } from './Composer.tsx';
import { EventLog } from './EventLog.tsx';
import type { FlowEditor } from './flow-editor.ts';
import { rewindOnly, type MessageVersions } from './history-model.ts';
import { FlowPanel } from './FlowPanel.tsx';
import { FlowsButton } from './FlowsButton.tsx';
import { HistoryPanel, type SessionLink } from './HistoryPanel.tsx';
import { lazy } from './lazy.tsx';
import { PanesBar, type Pane } from './PanesBar.tsx';
import type { ProvidersEditor } from './providers-editor.ts';
import { ResumeBanner } from './ResumeBanner.tsx';
import { RewindNote } from './RewindNote.tsx';
import { SessionList } from './SessionList.tsx';
import { SettingsMenu } from './SettingsMenu.tsx';
import { clip, TITLE_CHARS } from './preview.ts';
import { openingCheckpoints, sessionView } from './session-view.ts';
import { StatePanel } from './StatePanel.tsx';
import { StorageInfo } from './StorageInfo.tsx';
import { applyTheme } from './theme.ts';
import { sessionUsageText } from './usage-format.ts';
import { UpdatePrompt } from './UpdatePrompt.tsx';
import { useSnapshot } from './use-snapshot.ts';
import type { RuntimeClient, Workbench } from './workbench.ts';

// Views opened from the header: loaded when first opened, not with the page.
const FlowsView = lazy(() => import('./FlowsView.tsx').then((m) => m.FlowsView));
const AgentsView = lazy(() => import('./AgentsView.tsx').then((m) => m.AgentsView));
const ProvidersView = lazy(() => import('./ProvidersView.tsx').then((m) => m.ProvidersView));
const AdkServersView = lazy(() => import('./AdkServersView.tsx').then((m) => m.AdkServersView));
const ToolServersView = lazy(() => import('./ToolServersView.tsx').then((m) => m.ToolServersView));
const BackupView = lazy(() => import('./BackupView.tsx').then((m) => m.BackupView));
// Opened from a turn in History or a message's actions.
const TraceView = lazy(() => import('./trace/TraceView.tsx').then((m) => m.TraceView));
// Shown above a session on an ADK server only.
const RemoteBar = lazy(() => import('./RemoteBar.tsx').then((m) => m.RemoteBar));

const PLACEHOLDERS: Record<string, string> = {
  'state-keeper': 'set color to red',
  'writing-workflow': 'A topic to write about, e.g. tea',
  'example:support': 'Is invoice INV-1042 paid?',
  'example:research-brief': 'A topic for a brief, e.g. solar panels',
};

/** What the main area shows: the session, or one of the views opened from the header. */
type View = 'chat' | 'flows' | 'agents' | 'providers' | 'adk' | 'tools' | 'backup' | 'trace';

interface Props {
  workbench: Workbench;
  flows: FlowEditor;
  providers: ProvidersEditor;
  builder: AgentBuilder;
  /** The worker, for the views that make their own view model when first opened. */
  client: RuntimeClient;
}

export function App({ workbench, flows, providers, builder, client }: Props) {
  const state = useSnapshot(workbench);
  const actions = useMemo(() => actionsOf(workbench), [workbench]);
  const [view, setView] = useState<View>('chat');
  const [pane, setPane] = useState<Pane>('chat');
  // The turn the Trace view shows, with its session (another session opened closes it).
  const [traced, setTraced] = useState<{ sessionId: string; invocationId: string }>();
  const toggle = (next: View) => {
    setView((open) => (open === next ? 'chat' : next));
    setPane('chat');
  };
  // Until the worker has said which theme is set, the one main.tsx took from this browser holds.
  useEffect(() => {
    if (state.ready) applyTheme(state.settings.theme);
  }, [state.ready, state.settings.theme]);
  // Escape stops a run wherever the focus is (the composer handles its own first).
  useEffect(() => {
    if (!state.running) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape' && !event.defaultPrevented) actions.stop();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [state.running, actions]);
  // Opening a session from the Sessions pane (on a phone) shows its chat.
  const openSession = useMemo(
    () => (id: string) => {
      actions.open(id);
      setPane('chat');
    },
    [actions],
  );
  const choosePane = useMemo(
    () => (id: Pane) => {
      setPane(id);
      if (id === 'chat') setView('chat');
    },
    [],
  );
  const newSession = useMemo(
    () => () => {
      actions.newSession();
      setPane('chat');
    },
    [actions],
  );
  const use = (agentId: string) => {
    actions.setAgent(agentId);
    setView('chat');
  };
  const [checkpointsOpen, setCheckpointsOpen] = useState(false);
  const { current, running, busyElsewhere } = state;
  const currentId = current?.summary.id;
  const showTrace = useCallback(
    (invocationId: string) => {
      if (!currentId) return;
      setTraced({ sessionId: currentId, invocationId });
      setView('trace');
      setPane('chat');
    },
    [currentId],
  );
  const tracing = view === 'trace' && traced?.sessionId === currentId ? traced : undefined;
  const session = current && sessionView(current);
  const locked = running || busyElsewhere;
  const agentId = current?.summary.agentId;
  const agentInfo = state.agents.find((agent) => agent.id === agentId);
  const flow = agentInfo?.flow;
  const [editing, setEditing] = useState<EditTarget>();
  const usageText = sessionUsageText(state.usage);
  // A session on an ADK server has its traces there (the bar's Trace), none here.
  const remoteSession = !!current?.summary.remote;
  const messageActions = useMemo(
    () => ({
      onEdit: setEditing,
      onRewind: actions.rewind,
      onSwitch: actions.switchToBranch,
      onRegenerate: actions.regenerate,
      onShowEvent: (eventId: string) => {
        actions.showInLog(eventId);
        setPane('log');
      },
      ...(remoteSession ? {} : { onTrace: showTrace }),
    }),
    [actions, showTrace, remoteSession],
  );
  const chatItems = session?.chat;
  const lastAnswerId = useMemo(() => {
    const last = chatItems?.findLast((item) => item.kind === 'message');
    return last?.kind === 'message' && !last.fromUser ? last.id : undefined;
  }, [chatItems]);
  const remote = !!current?.summary.remote;
  const messageContext = useMemo(
    () => ({
      actions: messageActions,
      versions: session?.versions ?? NO_VERSIONS,
      lastAnswerId: running ? undefined : lastAnswerId,
      locked,
      rewindOnly: remote,
    }),
    [messageActions, session?.versions, lastAnswerId, running, locked, remote],
  );
  // A rewind into a new session on an ADK server links the two sessions, both ways.
  const historyLinks = useMemo((): SessionLink[] => {
    if (!current) return EMPTY;
    const from = current.summary.remote?.rewoundFrom;
    const into = state.sessions.filter(
      (other) => other.remote?.rewoundFrom?.sessionId === current.summary.id,
    );
    return [
      ...(from ? [{ label: 'Rewound from', sessionId: from.sessionId, title: from.title }] : []),
      ...into.map((other) => ({ label: 'Rewound into', sessionId: other.id, title: other.title })),
    ];
  }, [current?.summary, state.sessions]);
  const historyRows = useMemo(
    () => (remote ? rewindOnly(session?.history ?? EMPTY) : (session?.history ?? EMPTY)),
    [remote, session?.history],
  );
  const approvalsWaiting =
    session?.approvals.filter((approval) => !state.answered.includes(approval.requestId)).length ??
    0;
  const checkpoints = useMemo(
    () => (flow && current ? openingCheckpoints(current, { running: locked }) : EMPTY),
    [flow, current?.activeTail, current?.summary.id, locked],
  );
  const progress = useMemo(() => flowProgress(checkpoints), [checkpoints]);
  // A checkpoint row's node, centred on the Flow panel's canvas (cleared first, so that the same
  // node chosen again is centred again).
  const [focusNode, setFocusNode] = useState<string | undefined>();
  const showNode = useCallback((nodeId: string) => {
    setFocusNode(undefined);
    requestAnimationFrame(() => setFocusNode(nodeId));
  }, []);

  return (
    <div
      class={view === 'chat' || (view === 'trace' && !tracing) ? 'app' : 'app flows-open'}
      data-pane={pane}
    >
      <header class="top">
        <p class="brand">
          <img src="/favicon.svg" alt="" width="28" height="28" /> Trellis
        </p>
        <AgentSelect
          agents={state.agents}
          value={agentId}
          disabled={!state.ready || locked || state.opening}
          onChange={actions.setAgent}
        />
        <FlowsButton editor={flows} pressed={view === 'flows'} onClick={() => toggle('flows')} />
        <button type="button" aria-pressed={view === 'agents'} onClick={() => toggle('agents')}>
          Agents
        </button>
        <StorageInfo
          refreshKey={current?.summary.lastUpdateTime}
          hasWork={state.sessions.some((s) => !s.remote && s.lastUpdateTime > s.createdAt)}
          lastBackupAt={() => client.runtime.lastBackupAt()}
          onBackup={() => {
            setView('backup');
            setPane('chat');
          }}
        />
        <SettingsMenu
          settings={state.settings}
          onChange={actions.updateSettings}
          onProviders={() => {
            setView('providers');
            setPane('chat');
          }}
          onAdkServers={() => {
            setView('adk');
            setPane('chat');
          }}
          onToolServers={() => {
            setView('tools');
            setPane('chat');
          }}
          onBackup={() => {
            setView('backup');
            setPane('chat');
          }}
        />
      </header>

      <PanesBar pane={pane} withFlow={!!flow} onChoose={choosePane} />

      <SessionList
        sessions={state.sessions}
        currentId={current?.summary.id}
        busyIds={busyElsewhere && current ? [current.summary.id] : []}
        onOpen={openSession}
        onNew={newSession}
        onRename={actions.rename}
        onDelete={actions.remove}
        onExport={actions.exportSession}
        onExportEvalSet={actions.exportEvalSet}
        onImport={actions.importFile}
      />

      <main class="main">
        <Announcer
          sessionId={current?.summary.id}
          chat={session?.chat ?? EMPTY}
          approvals={session?.approvals ?? EMPTY}
        />
        <div class="banners">
          <UpdatePrompt />
          <ResumeBanner runs={state.interrupted} disabled={running} onResume={actions.resume} />
          {busyElsewhere && (
            <p class="banner busy" role="status">
              This session is running in another tab. It updates here live; you can act on it once
              that run ends.
            </p>
          )}
          {state.error && (
            <p class="banner error" role="alert">
              {state.error}{' '}
              <button type="button" class="quiet" onClick={actions.dismiss}>
                Dismiss
              </button>
            </p>
          )}
          {state.notice && (
            <p class="banner notice" role="status">
              {state.notice}{' '}
              <button type="button" class="quiet" onClick={actions.dismiss}>
                OK
              </button>
            </p>
          )}
        </div>
        {tracing ? (
          <TraceView
            key={`${tracing.sessionId} ${tracing.invocationId}`}
            client={client}
            sessionId={tracing.sessionId}
            invocationId={tracing.invocationId}
            onClose={() => setView('chat')}
          />
        ) : view === 'flows' ? (
          <FlowsView editor={flows} onUse={use} onClose={() => setView('chat')} />
        ) : view === 'agents' ? (
          <AgentsView
            builder={builder}
            onProviders={() => setView('providers')}
            onUse={use}
            onClose={() => setView('chat')}
          />
        ) : view === 'providers' ? (
          <ProvidersView editor={providers} onClose={() => setView('chat')} />
        ) : view === 'tools' ? (
          <ToolServersView client={client} onClose={() => setView('chat')} />
        ) : view === 'backup' ? (
          <BackupView client={client} onClose={() => setView('chat')} />
        ) : view === 'adk' ? (
          <AdkServersView
            client={client}
            onOpen={(id) => {
              openSession(id);
              setView('chat');
            }}
            onNewSession={(agentId) => {
              actions.newSessionWith(agentId);
              setView('chat');
            }}
            onClose={() => setView('chat')}
          />
        ) : (
          <>
            <div class="session-bar">
              <h1 class="session-heading">
                {current ? clip(current.summary.title, TITLE_CHARS) : 'Trellis'}
              </h1>
              {usageText && (
                <p class="session-usage" title="Counted over every answer, rewound ones too">
                  {usageText}
                </p>
              )}
              {flow && (
                <div class="view-switch" role="group" aria-label="View">
                  <button
                    type="button"
                    aria-pressed={!checkpointsOpen}
                    onClick={() => setCheckpointsOpen(false)}
                  >
                    Chat
                  </button>
                  <button
                    type="button"
                    aria-pressed={checkpointsOpen}
                    onClick={() => setCheckpointsOpen(true)}
                  >
                    Checkpoints
                  </button>
                </div>
              )}
            </div>
            {current?.summary.remote && (
              <RemoteBar
                key={current.summary.id}
                remote={current.summary.remote}
                disabled={locked}
                onCopy={actions.copyToBrowser}
                onOpen={openSession}
                loadTrace={actions.remoteTrace}
              />
            )}
            {session && (
              <Approvals
                approvals={session.approvals.filter(
                  (approval) => !state.answered.includes(approval.requestId),
                )}
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
                requests={session.inputs.filter(
                  (request) => !state.answered.includes(request.callId),
                )}
                disabled={locked}
                onReply={actions.respond}
              />
            )}
            {flow && current && checkpointsOpen ? (
              <CheckpointsPanel
                rows={checkpoints}
                threadId={current.summary.id}
                disabled={locked}
                onRewind={actions.rewindToCheckpoint}
                onShowNode={showNode}
              />
            ) : (
              <Chat
                items={session?.chat ?? EMPTY}
                sent={state.sent}
                runEventIds={state.runEventIds}
                streaming={state.streaming}
                stopped={state.stoppedText}
                running={running}
                context={messageContext}
                earlier={session?.earlierMessages ?? false}
                onShowEarlier={actions.showEarlierMessages}
              />
            )}
            {state.rewind && (
              <RewindNote said={state.rewind.said} disabled={locked} onUndo={actions.undoRewind} />
            )}
            <Composer
              running={running}
              disabled={!state.ready || busyElsewhere || !current || state.opening}
              placeholder={PLACEHOLDERS[agentId ?? ''] ?? 'Message'}
              policy={agentInfo?.attachments}
              lastMessage={session?.lastMessage}
              editing={editing}
              returned={state.returned}
              approvalsWaiting={approvalsWaiting}
              questionWaiting={
                session?.inputs.some(
                  (input) => input.kind === 'question' && !state.answered.includes(input.callId),
                ) ?? false
              }
              onSend={actions.send}
              onEdit={actions.edit}
              onStartEdit={setEditing}
              onRejectAndSend={actions.rejectAndSend}
              onShowApprovals={showApprovals}
              onStop={actions.stop}
            />
          </>
        )}
      </main>

      <aside class="side">
        {flow && (
          <FlowPanel
            flow={flow}
            progress={progress}
            waiting={(session?.approvals.length ?? 0) > 0}
            focus={focusNode}
          />
        )}
        <HistoryPanel
          rows={historyRows}
          links={historyLinks}
          onOpenSession={openSession}
          earlier={session?.earlierTurns ?? false}
          onShowEarlier={actions.showEarlierTurns}
          selectedId={state.selectedTurnId}
          disabled={locked}
          onSelect={actions.selectTurn}
          onRewind={actions.rewind}
          onSwitchBranch={actions.switchToBranch}
          onEdit={actions.edit}
          onFork={actions.fork}
          {...(remote ? {} : { onTrace: showTrace })}
          {...(remote
            ? {}
            : {
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
    </div>
  );
}

const EMPTY: never[] = [];
const NO_STATE: Readonly<Record<string, unknown>> = {};
const NO_VERSIONS: ReadonlyMap<string, MessageVersions> = new Map();
