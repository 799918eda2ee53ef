import { render } from 'preact';
import { App } from './ui/App.tsx';
import { connectRuntime } from './ui/runtime-client.ts';
import { Workbench } from './ui/workbench.ts';
import './ui/styles.css';

const workbench = new Workbench(connectRuntime());
render(<App workbench={workbench} />, document.getElementById('app')!);
void workbench.init();
