import { AgentSelect } from '../agents/AgentSelect.tsx';
import type { AppActions } from './app-actions.ts';
import type { FlowEditor } from '../flows/flow-editor.ts';
import { FlowsButton } from '../flows/FlowsButton.tsx';
import { hasWork } from '../workbench/open-session-model.ts';
import type { MainView } from './MainViews.tsx';
import { SettingsMenu } from './SettingsMenu.tsx';
import { StorageInfo } from '../settings/StorageInfo.tsx';
import type { RuntimeClient, WorkbenchState } from '../workbench/workbench-state.ts';

interface Props {
  state: WorkbenchState;
  actions: AppActions;
  flows: FlowEditor;
  client: RuntimeClient;
  /** The view the main area shows. */
  view: MainView;
  /** A run holds the open session (here or in another tab). */
  locked: boolean;
  /** Opens a view from a button that also closes it (Flows, Agents). */
  onToggle: (view: MainView) => void;
  /** Opens a view from a menu (Settings, the storage reminder). */
  onOpen: (view: MainView) => void;
}

/** The top bar: the open session's agent, the Flows and Agents views, storage and Settings. */
export function AppHeader({
  state,
  actions,
  flows,
  client,
  view,
  locked,
  onToggle,
  onOpen,
}: Props) {
  return (
    <header class="top">
      <p class="brand">
        <img src="/favicon.svg" alt="" width="28" height="28" /> Trellis
      </p>
      <AgentSelect
        agents={state.agents}
        value={state.current?.summary.agentId}
        disabled={!state.ready || locked || state.opening}
        onChange={actions.setAgent}
      />
      <FlowsButton editor={flows} pressed={view === 'flows'} onClick={() => onToggle('flows')} />
      <button type="button" aria-pressed={view === 'agents'} onClick={() => onToggle('agents')}>
        Agents
      </button>
      <StorageInfo
        refreshKey={state.current?.summary.lastUpdateTime}
        hasWork={state.sessions.some(hasWork)}
        lastBackupAt={() => client.runtime.lastBackupAt()}
        onBackup={() => onOpen('backup')}
      />
      <SettingsMenu
        settings={state.settings}
        onChange={actions.updateSettings}
        onProviders={() => onOpen('providers')}
        onAdkServers={() => onOpen('adk')}
        onToolServers={() => onOpen('tools')}
        onBackup={() => onOpen('backup')}
        onSecurity={() => onOpen('security')}
        onMemory={() => onOpen('memory')}
        onPrompts={() => onOpen('prompts')}
        onKnowledge={() => onOpen('knowledge')}
      />
    </header>
  );
}
