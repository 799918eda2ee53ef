import { render } from 'preact';
import { App } from './ui/App.tsx';

render(<App />, document.getElementById('app')!);
