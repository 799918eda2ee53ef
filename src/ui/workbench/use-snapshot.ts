import { useEffect, useState } from 'preact/hooks';
import type { ViewState } from './view-state.ts';

/** A view model's snapshot, re-rendering the component on every change. */
export function useSnapshot<S extends object>(model: ViewState<S>): S {
  const [state, setState] = useState(model.snapshot);
  useEffect(() => {
    setState(model.snapshot);
    return model.subscribe(() => setState(model.snapshot));
  }, [model]);
  return state;
}
