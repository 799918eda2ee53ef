import { useEffect, useState } from 'preact/hooks';
import type { Workbench, WorkbenchState } from './workbench.ts';

/** The workbench's state, re-rendering on every change. */
export function useWorkbench(workbench: Workbench): WorkbenchState {
  const [state, setState] = useState(workbench.snapshot);
  useEffect(() => {
    setState(workbench.snapshot);
    return workbench.subscribe(() => setState(workbench.snapshot));
  }, [workbench]);
  return state;
}
