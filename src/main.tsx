import { render } from 'preact';
import { AgentBuilder } from './ui/agents/agent-builder.ts';
import { addressOf } from './ui/shell/address.ts';
import { App } from './ui/shell/App.tsx';
import { PendingDeletesContext } from './ui/common/DeleteButton.tsx';
import { FirstRun } from './ui/shell/first-run.ts';
import { FlowEditor } from './ui/flows/flow-editor.ts';
import { PendingDeletes, type PendingDelete } from './ui/common/pending-deletes.ts';
import { PromptLibrary, PromptsContext } from './ui/prompts/prompt-library.ts';
import { KnowledgeOpenContext } from './ui/knowledge/knowledge-context.ts';
import { ProvidersEditor } from './ui/settings/providers-editor.ts';
import { connectRuntime } from './ui/workbench/runtime-client.ts';
import { reloadOnceForIsolation } from './ui/shell/isolation.ts';
import { applyTheme, rememberedTheme } from './ui/shell/theme.ts';
import { installDefaultPolicy } from './ui/shell/trusted-types.ts';
import { Workbench } from './ui/workbench/workbench.ts';
import './ui/styles.css';

// Before the first paint: the theme chosen last (the settings come from the worker later).
applyTheme(rememberedTheme());
// On a host that sends no COOP/COEP, the service worker's copy of the page is isolated.
reloadOnceForIsolation();

/** Unsaved flow edits, so that a reload keeps them (see FlowEditor). */
const FLOW_DRAFTS = 'trellis-flow-drafts';

// Before the worker starts and the service worker registers: both take their script by URL.
installDefaultPolicy();
const client = connectRuntime();
const workbench = new Workbench(client);
const flows = new FlowEditor(client, undefined, {
  load: () => JSON.parse(localStorage.getItem(FLOW_DRAFTS) ?? '{}') as Record<string, string>,
  save: (drafts) => localStorage.setItem(FLOW_DRAFTS, JSON.stringify(drafts)),
});
const providers = new ProvidersEditor(client);
const builder = new AgentBuilder(client);
// Saved prompts: the Prompts view and `/` in the message box share one list.
const prompts = new PromptLibrary(client);
// Deletes wait for their Undo; each is done for good by its own view model.
const deleteFor: Record<PendingDelete['kind'], (id: string) => Promise<void>> = {
  session: (id) => workbench.remove(id),
  flow: (id) => flows.remove(id),
  agent: (id) => builder.remove(id),
  provider: (id) => providers.remove(id),
  prompt: (id) => prompts.remove(id),
};
const pending = new PendingDeletes({
  storage: localStorage,
  now: Date.now,
  setTimeout: (run, ms) => setTimeout(run, ms),
  clearTimeout: (timer) => clearTimeout(timer as number),
  commit: ({ kind, id }) => deleteFor[kind](id),
});
window.addEventListener('storage', (event) => {
  if (event.storageArea === localStorage) pending.reread();
});
// The session and view the address names (address.ts): a reload comes back to them.
const address = addressOf(location.hash);
render(
  <PendingDeletesContext.Provider value={pending}>
    <PromptsContext.Provider value={prompts}>
      <KnowledgeOpenContext.Provider value={(chunkId) => client.runtime.knowledge.open(chunkId)}>
        <App
          workbench={workbench}
          flows={flows}
          providers={providers}
          builder={builder}
          client={client}
          pending={pending}
          firstRun={new FirstRun(client, localStorage)}
          address={address}
        />
      </KnowledgeOpenContext.Provider>
    </PromptsContext.Provider>
  </PendingDeletesContext.Provider>,
  document.getElementById('app')!,
);
// What was left to delete starts once the page has opened a session that is not one of them.
void workbench.init(address?.sessionId, pending.hidden('session')).then(() => pending.start());
