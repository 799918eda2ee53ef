import { render } from 'preact';
import { AgentBuilder } from './ui/agent-builder.ts';
import { addressOf } from './ui/address.ts';
import { App } from './ui/App.tsx';
import { FlowEditor } from './ui/flow-editor.ts';
import { ProvidersEditor } from './ui/providers-editor.ts';
import { connectRuntime } from './ui/runtime-client.ts';
import { reloadOnceForIsolation } from './ui/isolation.ts';
import { applyTheme, rememberedTheme } from './ui/theme.ts';
import { installDefaultPolicy } from './ui/trusted-types.ts';
import { Workbench } from './ui/workbench.ts';
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
// The session and view the address names (address.ts): a reload comes back to them.
const address = addressOf(location.hash);
render(
  <App
    workbench={workbench}
    flows={flows}
    providers={providers}
    builder={builder}
    client={client}
    address={address}
  />,
  document.getElementById('app')!,
);
void workbench.init(address?.sessionId);
