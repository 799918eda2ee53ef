// The flow canvas, loaded the first time one is shown: xyflow and its styles are a chunk of their
// own, out of the page's first one (precached like the rest, so the canvas opens offline too).

import { lazy } from '../../common/lazy.tsx';
import type { FlowCanvasProps } from './FlowCanvas.tsx';

export const FlowCanvas = lazy<FlowCanvasProps>(() =>
  import('./FlowCanvas.tsx').then((module) => module.default),
);
