import { useEffect, useMemo } from 'preact/hooks';
import { PROVIDER_PRESETS } from '../models/provider-spec.ts';
import { DEMO_STARTS, type DemoStart, type FirstRun } from './first-run.ts';
import { useSnapshot } from './use-snapshot.ts';
import type { Workbench, WorkbenchState } from './workbench.ts';

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
  const startDemo = (demo: DemoStart) => {
    firstRun.finish();
    // Its agent in this session, then its message (not if the agent could not be set).
    void workbench.setAgent(demo.agentId).then(() => {
      if (workbench.snapshot.current?.summary.agentId === demo.agentId)
        return workbench.send(demo.message, []);
    });
  };
  const providers = () => {
    firstRun.finish();
    onProviders();
  };
  return (
    <section class="first-run" aria-labelledby="first-run-title">
      <div class="first-run-head">
        <h2 id="first-run-title">Start here</h2>
        <button type="button" class="quiet" onClick={() => firstRun.finish()}>
          Dismiss
        </button>
      </div>
      <p class="hint">
        Everything runs in this browser, and your sessions stay in it. Three ways to begin:
      </p>
      <ol>
        <li>
          <strong>Try a demo</strong>, offline and with no key: rules, not a model, to see state,
          rewind and approvals at work.
          <span class="first-run-actions">
            {demos.map((demo) => (
              <button key={demo.agentId} type="button" onClick={() => startDemo(demo)}>
                {demo.label}: “{demo.message}”
              </button>
            ))}
          </span>
        </li>
        <li>
          <strong>Add a provider</strong>:{' '}
          {PROVIDER_PRESETS.map((preset) => preset.label).join(', ')} or any OpenAI-compatible
          server, from its preset; you paste your key.
          <span class="first-run-actions">
            <button type="button" class="primary" onClick={providers}>
              Add a provider
            </button>
          </span>
        </li>
        <li>
          <strong>Add a local model</strong>: a GGUF file that runs on this device, offline
          (Providers → Add local model).
          <span class="first-run-actions">
            <button type="button" onClick={providers}>
              Add a local model
            </button>
          </span>
        </li>
      </ol>
    </section>
  );
}
