import { render } from 'preact';
import { App } from './ui/App.tsx';
import { FlowEditor } from './ui/flow-editor.ts';
import { connectRuntime } from './ui/runtime-client.ts';
import { Workbench } from './ui/workbench.ts';
import './ui/styles.css';

const client = connectRuntime();
const workbench = new Workbench(client);
const flows = new FlowEditor(client);
render(<App workbench={workbench} flows={flows} />, document.getElementById('app')!);
void workbench.init();
