// The state editor, loaded the first time someone edits state (it is not in the first page chunk).

import { lazy } from '../common/lazy.tsx';

export const StateEditor = lazy(() => import('./StateEditor.tsx').then((m) => m.StateEditor));
