import { useEffect, useMemo } from 'preact/hooks';
import { DEMO_STARTS, type FirstRun } from './first-run.ts';
import { lazy } from '../common/lazy.tsx';
import { useSnapshot } from '../workbench/use-snapshot.ts';
import type { Workbench, WorkbenchState } from '../workbench/workbench.ts';

// What the card says: loaded only on a browser that shows it.
const FirstRunBody = lazy(() => import('./FirstRunBody.tsx').then((m) => m.FirstRunBody), {
  fallback: null,
});

interface Props {
  firstRun: FirstRun;
  workbench: Workbench;
  state: WorkbenchState;
  /** Opens Settings → Providers (the presets, and Add local model). */
  onProviders: () => void;
}

/**
 * Where to start, on a fresh browser (first-run.ts): a demo, a provider, a local model. Taking
 * one, or Dismiss, puts it away for good.
 */
export function FirstRunCard({ firstRun, workbench, state, onProviders }: Props) {
  const { show } = useSnapshot(firstRun);
  const { ready, sessions, agents } = state;
  useEffect(() => {
    if (ready) void firstRun.check(sessions);
    firstRun.follow(sessions);
  }, [ready, sessions]);
  const demos = useMemo(
    () => DEMO_STARTS.filter((demo) => agents.some((agent) => agent.id === demo.agentId)),
    [agents],
  );
  if (!show) return null;
  return (
    <FirstRunBody
      firstRun={firstRun}
      workbench={workbench}
      demos={demos}
      onProviders={onProviders}
    />
  );
}
