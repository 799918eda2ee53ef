// The first-run card's content (FirstRunCard.tsx decides whether it shows): a demo, a provider,
// a local model.

import { PROVIDER_PRESETS } from '../../models/provider-spec.ts';
import type { DemoStart, FirstRun } from './first-run.ts';
import type { Workbench } from '../workbench/workbench.ts';

interface Props {
  firstRun: FirstRun;
  workbench: Workbench;
  /** The demos whose agents are here. */
  demos: readonly DemoStart[];
  onProviders: () => void;
}

export function FirstRunBody({ firstRun, workbench, demos, onProviders }: Props) {
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
