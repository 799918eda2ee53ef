import { shownName } from '../../agents/agent-name.ts';
import { useEffect } from 'preact/hooks';
import { useSnapshot } from '../workbench/use-snapshot.ts';
import type { AgentBuilder } from './agent-builder.ts';
import { AgentForm } from './AgentForm.tsx';
import { download } from '../common/download.ts';
import { DeleteButton, useHiddenIds } from '../common/DeleteButton.tsx';

interface Props {
  builder: AgentBuilder;
  onProviders: () => void;
  onUse: (agentId: string) => void;
  onClose: () => void;
}

/** The agent builder: your agents (export, delete), import, and the form of one. */
export function AgentsView({ builder, onProviders, onUse, onClose }: Props) {
  const state = useSnapshot(builder);
  const { specs, draft } = state;
  // Deleted, waiting for its Undo: not listed.
  const deleted = useHiddenIds('agent');
  const listed = specs.filter((item) => !deleted.has(item.id));

  useEffect(() => {
    void builder.start();
    return () => builder.stop();
  }, [builder]);

  return (
    <section class="flows-view" aria-label="Agents">
      <header class="flows-head">
        <h2>Agents</h2>
        <p class="hint">
          An agent is a model of one of your providers with an instruction, built-in tools and other
          agents it can hand the conversation to.
        </p>
        <label class="import">
          Import agent…
          <input
            type="file"
            accept="application/json,.json"
            onChange={(event) => {
              const input = event.currentTarget;
              const file = input.files?.[0];
              input.value = '';
              if (file) void file.text().then((json) => builder.importFile(json));
            }}
          />
        </label>
        <button type="button" onClick={onClose}>
          Back to the chat
        </button>
      </header>
      <div class="flows-body">
        <nav class="flows-list" aria-label="Agent list">
          <ul>
            {listed.map((spec) => (
              <li key={spec.id} class={spec.id === draft.id ? 'current' : ''}>
                <button
                  type="button"
                  class="flow-open"
                  aria-pressed={spec.id === draft.id}
                  onClick={() => builder.select(spec.id)}
                >
                  {shownName(spec)}
                </button>
                <div class="flow-actions">
                  <button
                    type="button"
                    aria-label={`Export ${shownName(spec)}`}
                    onClick={() =>
                      void builder
                        .exportFile(spec.id)
                        .then((file) => file && download(file.filename, file.json))
                    }
                  >
                    Export
                  </button>
                  <DeleteButton
                    kind="agent"
                    id={spec.id}
                    label={`Delete ${shownName(spec)}`}
                    said={`Deleted the agent “${shownName(spec)}”. Its sessions are kept.`}
                  />
                </div>
              </li>
            ))}
          </ul>
          <button type="button" onClick={() => builder.newAgent()}>
            New agent
          </button>
        </nav>
        {state.loaded ? (
          <AgentForm builder={builder} state={state} onProviders={onProviders} onUse={onUse} />
        ) : (
          <p class="hint" role="status">
            Loading your agents…
          </p>
        )}
      </div>
    </section>
  );
}
