import type { AgentBuilder } from '../agents/agent-builder.ts';
import type { FlowEditor } from '../flows/flow-editor.ts';
import { lazy } from '../common/lazy.tsx';
import type { ProvidersEditor } from '../settings/providers-editor.ts';
import type { RuntimeClient } from '../workbench/workbench-state.ts';

// Views opened from the header: loaded when first opened, not with the page.
const FlowsView = lazy(() => import('../flows/FlowsView.tsx').then((m) => m.FlowsView));
const AgentsView = lazy(() => import('../agents/AgentsView.tsx').then((m) => m.AgentsView));
const ProvidersView = lazy(() =>
  import('../settings/ProvidersView.tsx').then((m) => m.ProvidersView),
);
const AdkServersView = lazy(() =>
  import('../remote/AdkServersView.tsx').then((m) => m.AdkServersView),
);
const ToolServersView = lazy(() =>
  import('../settings/ToolServersView.tsx').then((m) => m.ToolServersView),
);
const BackupView = lazy(() => import('../settings/BackupView.tsx').then((m) => m.BackupView));
const KeysView = lazy(() => import('../settings/KeysView.tsx').then((m) => m.KeysView));
const MemoryView = lazy(() => import('../memory/MemoryView.tsx').then((m) => m.MemoryView));
const PromptsView = lazy(() => import('../prompts/PromptsView.tsx').then((m) => m.PromptsView));
const KnowledgeView = lazy(() =>
  import('../knowledge/KnowledgeView.tsx').then((m) => m.KnowledgeView),
);
// Opened from a turn in History or a message's actions.
const TraceView = lazy(() => import('../trace/TraceView.tsx').then((m) => m.TraceView));

/** What the main area shows: the session, or one of the views opened from the header. */
export type MainView =
  | 'chat'
  | 'flows'
  | 'agents'
  | 'providers'
  | 'adk'
  | 'tools'
  | 'backup'
  | 'security'
  | 'memory'
  | 'prompts'
  | 'knowledge'
  | 'trace';

/** A turn whose trace is shown, with its session. */
export interface TracedTurn {
  sessionId: string;
  invocationId: string;
}

interface Props {
  /** A view other than the session's chat. */
  view: Exclude<MainView, 'chat'>;
  /** The turn the Trace view shows (it shows nothing without one). */
  traced: TracedTurn | undefined;
  flows: FlowEditor;
  providers: ProvidersEditor;
  builder: AgentBuilder;
  client: RuntimeClient;
  /** Gives the open session this agent (or flow) and goes back to its chat. */
  onUse: (agentId: string) => void;
  onOpenSession: (sessionId: string) => void;
  onNewSession: (agentId: string) => void;
  onView: (view: MainView) => void;
}

/** The view opened from the header (or the Trace view), in place of the session's chat. */
export function MainViews({ view, traced, flows, providers, builder, client, ...on }: Props) {
  const close = () => on.onView('chat');
  switch (view) {
    case 'trace':
      return traced ? (
        <TraceView
          key={`${traced.sessionId} ${traced.invocationId}`}
          client={client}
          sessionId={traced.sessionId}
          invocationId={traced.invocationId}
          onClose={close}
        />
      ) : null;
    case 'flows':
      return <FlowsView editor={flows} onUse={on.onUse} onClose={close} />;
    case 'agents':
      return (
        <AgentsView
          builder={builder}
          onProviders={() => on.onView('providers')}
          onUse={on.onUse}
          onClose={close}
        />
      );
    case 'providers':
      return <ProvidersView editor={providers} onClose={close} />;
    case 'tools':
      return <ToolServersView client={client} onClose={close} />;
    case 'security':
      return <KeysView client={client} onClose={close} />;
    case 'backup':
      return <BackupView client={client} onClose={close} />;
    case 'memory':
      return (
        <MemoryView
          client={client}
          onOpen={(id) => {
            on.onOpenSession(id);
            close();
          }}
          onClose={close}
        />
      );
    case 'prompts':
      return <PromptsView onClose={close} />;
    case 'knowledge':
      return <KnowledgeView client={client} onClose={close} />;
    case 'adk':
      return (
        <AdkServersView
          client={client}
          onOpen={(id) => {
            on.onOpenSession(id);
            close();
          }}
          onNewSession={(agentId) => {
            on.onNewSession(agentId);
            close();
          }}
          onClose={close}
        />
      );
  }
}
