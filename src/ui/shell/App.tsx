import { useCallback, useEffect, useMemo, useState } from 'preact/hooks';
import type { Address } from './address.ts';
import type { AgentBuilder } from '../agents/agent-builder.ts';
import { actionsOf } from './app-actions.ts';
import { AppHeader } from './AppHeader.tsx';
import { Announcer } from './Announcer.tsx';
import { Banners } from './Banners.tsx';
import { workflowOf, workflowProgress } from '../flows/workflow-progress.ts';
import { flowProgress } from '../history/checkpoints-model.ts';
import type { EditTarget } from '../chat/Composer.tsx';
import type { FirstRun } from './first-run.ts';
import { FirstRunCard } from './FirstRunCard.tsx';
import { KeyboardShortcuts } from './KeyboardShortcuts.tsx';
import type { FlowEditor } from '../flows/flow-editor.ts';
import { rewindOnly } from '../history/history-model.ts';
import type { SessionLink } from '../history/HistoryPanel.tsx';
import { MainViews, type MainView, type TracedTurn } from './MainViews.tsx';
import { sessionFlow, sessionLinks } from '../workbench/open-session-model.ts';
import { useMessageBoxFocus } from '../chat/message-box-focus.ts';
import { useMessageContext } from '../workbench/use-message-context.ts';
import { useNoticeTimeout } from '../common/notice-timeout.ts';
import { PanesBar, type Pane } from './PanesBar.tsx';
import type { PendingDeletes } from '../common/pending-deletes.ts';
import type { ProvidersEditor } from '../settings/providers-editor.ts';
import { SessionList } from '../sessions/SessionList.tsx';
import { useSearchLauncher } from '../search/SearchLauncher.tsx';
import { SessionMain } from '../chat/SessionMain.tsx';
import { SidePanels } from './SidePanels.tsx';
import { openingCheckpoints, sessionView } from '../workbench/session-view.ts';
import { KeysUnlockBanner } from '../settings/KeysUnlockBanner.tsx';
import { SkipLink } from './SkipLink.tsx';
import { bannerRuns, turnRunOf } from '../chat/turn-run-model.ts';
import { applyTheme } from './theme.ts';
import { UndoBar } from '../common/UndoBar.tsx';
import { useAddress } from './use-address.ts';
import { useListedSessions } from '../sessions/use-listed-sessions.ts';
import { SessionOrganiser } from '../sessions/session-organiser.ts';
import { useSnapshot } from '../workbench/use-snapshot.ts';
import type { RuntimeClient, Workbench } from '../workbench/workbench.ts';

interface Props {
  workbench: Workbench;
  flows: FlowEditor;
  providers: ProvidersEditor;
  builder: AgentBuilder;
  /** The worker, for the views that make their own view model when first opened. */
  client: RuntimeClient;
  /** Deletes waiting for their Undo (main.tsx also hands it to the Delete buttons). */
  pending: PendingDeletes;
  firstRun: FirstRun;
  /** The page's address when it loaded (its session is opened by `workbench.init`). */
  address: Address | undefined;
}

export function App(props: Props) {
  const { workbench, flows, providers, builder, client, pending, firstRun, address } = props;
  const state = useSnapshot(workbench);
  const actions = useMemo(() => actionsOf(workbench), [workbench]);
  const [view, setView] = useState<MainView>(address?.view ?? 'chat');
  const [pane, setPane] = useState<Pane>('chat');
  const search = useSearchLauncher(client, workbench, () => setPane('chat'));
  // The turn the Trace view shows, with its session (another session opened closes it).
  const [traced, setTraced] = useState<TracedTurn | undefined>(
    address?.invocationId
      ? { sessionId: address.sessionId, invocationId: address.invocationId }
      : undefined,
  );
  const toggle = (next: MainView) => {
    setView((open) => (open === next ? 'chat' : next));
    setPane('chat');
  };
  const openView = (next: MainView) => {
    setView(next);
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
  const sessions = useListedSessions(pending, workbench, state);
  const organiser = useMemo(
    () => new SessionOrganiser(client.runtime, pending, client.runtime, localStorage),
    [client, pending],
  );
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
  const [editing, setEditing] = useState<EditTarget>();
  const remote = !!current?.summary.remote;
  const showEvent = useCallback(
    (eventId: string) => {
      actions.showInLog(eventId);
      setPane('log');
    },
    [actions],
  );
  const messageContext = useMessageContext({
    session,
    actions,
    agent: agentInfo,
    running,
    locked,
    remote,
    editing,
    onEdit: setEditing,
    onShowEvent: showEvent,
    // A session on an ADK server has its traces there (the bar's Trace), none here.
    ...(remote ? {} : { onTrace: showTrace }),
  });
  // A rewind into a new session on an ADK server links the two sessions, both ways.
  const historyLinks = useMemo(
    (): SessionLink[] => (current ? sessionLinks(current.summary, state.sessions) : EMPTY),
    [current?.summary, state.sessions],
  );
  const historyRows = useMemo(
    () => (remote ? rewindOnly(session?.history ?? EMPTY) : (session?.history ?? EMPTY)),
    [remote, session?.history],
  );
  // An ADK 2.0 workflow's node runs are its checkpoints: one here, or one on an ADK server.
  const workflowName = agentInfo?.workflow?.name ?? workflowOf(session?.active ?? EMPTY);
  const checkpoints = useMemo(
    () =>
      current ? openingCheckpoints(current, { running: locked, workflow: workflowName }) : EMPTY,
    [current?.activeTail, current?.summary.id, locked, workflowName],
  );
  // The flow the session ran (its checkpoints are of it), not the one the Agent select now names.
  // An ADK 2.0 workflow's graph is lit from its events' node paths (it writes no checkpoints).
  const workflow = agentInfo?.workflow;
  const shownFlow = useMemo(
    () => (workflow ? { flow: workflow } : sessionFlow(state.agents, agentId, checkpoints)),
    [state.agents, agentId, checkpoints, workflow],
  );
  const progress = useMemo(
    () =>
      workflow
        ? workflowProgress(session?.active ?? EMPTY, workflow.name)
        : flowProgress(checkpoints),
    [checkpoints, workflow, session?.active],
  );
  // A checkpoint row's node, centred on the Flow panel's canvas (cleared first, so that the same
  // node chosen again is centred again).
  const [focusNode, setFocusNode] = useState<string | undefined>();
  const showNode = useCallback((nodeId: string) => {
    setFocusNode(undefined);
    requestAnimationFrame(() => setFocusNode(nodeId));
  }, []);

  const showsSession = view === 'chat' || (view === 'trace' && !tracing);
  // The last turn's unfinished run is offered at its end in the chat; the banner lists the
  // session's others (and that one too while the chat is not shown).
  const unfinished = useMemo(
    () =>
      current &&
      session &&
      turnRunOf(session.active, state.interrupted, {
        sessionId: current.summary.id,
        remote,
      }),
    [current?.summary.id, session?.active, state.interrupted, remote],
  );
  const chatShown = showsSession && !((agentInfo?.flow || workflowName) && checkpointsOpen);
  const banner = useMemo(
    () =>
      showsSession
        ? bannerRuns(
            state.interrupted,
            currentId,
            chatShown ? unfinished : undefined,
            state.dismissedRuns,
          )
        : EMPTY,
    [showsSession, state.interrupted, currentId, chatShown, unfinished, state.dismissedRuns],
  );
  useAddress(
    state.ready && currentId
      ? {
          sessionId: currentId,
          view: showsSession ? 'chat' : view,
          ...(tracing ? { invocationId: tracing.invocationId } : {}),
        }
      : undefined,
    async (to) => {
      if (to.sessionId !== workbench.snapshot.current?.summary.id) {
        const hidden = pending.hidden('session');
        if (!(await workbench.openFromAddress(to.sessionId, hidden)))
          return workbench.sayMissing(to.sessionId, hidden);
      }
      setView(to.view);
      setTraced(
        to.invocationId ? { sessionId: to.sessionId, invocationId: to.invocationId } : undefined,
      );
      setPane('chat');
    },
  );
  useMessageBoxFocus(
    state.ready && !state.opening && showsSession && currentId ? currentId : undefined,
  );
  useNoticeTimeout(workbench, state.notice, running);

  return (
    <div class={showsSession ? 'app' : 'app flows-open'} data-pane={pane}>
      <SkipLink toMessageBox={showsSession} />
      <AppHeader
        state={state}
        actions={actions}
        flows={flows}
        client={client}
        view={view}
        locked={locked}
        onToggle={toggle}
        onOpen={openView}
      />

      <PanesBar
        pane={showsSession ? pane : undefined}
        withFlow={!!shownFlow}
        onChoose={choosePane}
      />

      <SessionList
        sessions={sessions}
        currentId={current?.summary.id}
        busyIds={busyElsewhere && current ? [current.summary.id] : []}
        onOpen={openSession}
        onNew={newSession}
        onRename={actions.rename}
        onRemove={actions.remove}
        onExport={actions.exportSession}
        onExportEvalSet={actions.exportEvalSet}
        onImport={actions.importFile}
        onAddToMemory={actions.addToMemory}
        onSearch={search.open}
        organiser={organiser}
      />

      <main class="main">
        <Announcer
          sessionId={current?.summary.id}
          chat={session?.chat ?? EMPTY}
          approvals={session?.approvals ?? EMPTY}
        />
        <KeysUnlockBanner client={client} />
        <Banners
          interrupted={banner}
          running={running}
          busyElsewhere={busyElsewhere}
          error={state.error}
          notice={state.notice}
          onResume={actions.resume}
          onDismissRuns={actions.dismissRuns}
          onDismiss={actions.dismiss}
        />
        {showsSession ? (
          <SessionMain
            state={state}
            actions={actions}
            session={session}
            agent={agentInfo}
            locked={locked}
            checkpoints={checkpoints}
            checkpointsOpen={checkpointsOpen}
            onCheckpoints={setCheckpointsOpen}
            onStartEdit={setEditing}
            messageContext={messageContext}
            unfinished={unfinished}
            onOpenSession={openSession}
            onShowNode={showNode}
            intro={
              <FirstRunCard
                firstRun={firstRun}
                workbench={workbench}
                state={state}
                onProviders={() => openView('providers')}
              />
            }
          />
        ) : (
          <MainViews
            view={view}
            traced={tracing}
            flows={flows}
            providers={providers}
            builder={builder}
            client={client}
            onUse={use}
            onOpenSession={openSession}
            onNewSession={actions.newSessionWith}
            onView={setView}
          />
        )}
      </main>

      <SidePanels
        current={current}
        session={session}
        state={state}
        actions={actions}
        locked={locked}
        remote={remote}
        shownFlow={shownFlow}
        progress={progress}
        focusNode={focusNode}
        historyRows={historyRows}
        historyLinks={historyLinks}
        onOpenSession={openSession}
        onTrace={showTrace}
      />
      <KeyboardShortcuts />
      <UndoBar
        pending={pending}
        // A session brought back opens again (it was most likely the one open).
        onUndone={(item) => item.kind === 'session' && openSession(item.id)}
      />
      {search.dialog}
    </div>
  );
}

const EMPTY: never[] = [];
