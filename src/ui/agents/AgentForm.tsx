import { MAX_DISPLAY_NAME, shownName } from '../../agents/agent-name.ts';
import type { AgentBuilder, AgentBuilderState } from './agent-builder.ts';
import {
  modelPlaceholder,
  subAgentChoices,
  toggled,
  toggledServer,
  withServerTools,
} from './agent-builder-model.ts';
import { ErrorBanner, FormStatus } from '../common/FormNotices.tsx';
import { KnowledgeChoices } from '../knowledge/KnowledgeChoices.tsx';

interface Props {
  builder: AgentBuilder;
  state: AgentBuilderState;
  /** Opens Settings → Providers. */
  onProviders: () => void;
  /** Talks to the agent in the open session (sets its agent). */
  onUse: (agentId: string) => void;
}

/** The form of one agent: provider and model, instruction, built-in tools, sub-agents. */
export function AgentForm({ builder, state, onProviders, onUse }: Props) {
  const { draft, specs, providers, tools, toolServers, models, modelsError, problems } = state;
  const { saving, status, error } = state;
  const saved = specs.find((spec) => spec.id === draft.id);
  const choices = subAgentChoices(specs, draft.id);
  const change = builder.change.bind(builder);
  return (
    <form
      class="flow-editor agent-form"
      onSubmit={(event) => {
        event.preventDefault();
        void builder.save();
      }}
    >
      {providers.length === 0 && (
        <p class="banner notice">
          An agent runs on a model provider: add one first.{' '}
          <button type="button" onClick={onProviders}>
            Open Providers
          </button>
        </p>
      )}
      <label class="field">
        Name
        <input
          value={draft.displayName ?? draft.name}
          maxLength={MAX_DISPLAY_NAME}
          aria-describedby="agent-identifier"
          onInput={(e) => builder.rename(e.currentTarget.value)}
        />
      </label>
      <p class="hint" id="agent-identifier">
        Identifier: <code>{draft.name}</code>, the name its messages and the agents that hand over
        to it use (ADK’s agent name){draft.id ? '; it stays when you rename the agent.' : '.'}
      </p>
      <label class="field">
        Description
        <input
          value={draft.description}
          onInput={(e) => change({ description: e.currentTarget.value })}
        />
      </label>
      <div class="field-row">
        <label class="field">
          Provider
          <select
            value={draft.providerId}
            onChange={(e) => change({ providerId: e.currentTarget.value })}
          >
            {!providers.some((p) => p.id === draft.providerId) && (
              <option value={draft.providerId}>(choose a provider)</option>
            )}
            {providers.map((provider) => (
              <option key={provider.id} value={provider.id}>
                {provider.name}
              </option>
            ))}
          </select>
        </label>
        <label class="field">
          Model
          <input
            value={draft.model}
            list="agent-models"
            spellcheck={false}
            placeholder={modelPlaceholder(providers, draft.providerId)}
            onInput={(e) => change({ model: e.currentTarget.value })}
          />
          <datalist id="agent-models">
            {models.map((model) => (
              <option key={model} value={model} />
            ))}
          </datalist>
        </label>
      </div>
      {modelsError && <p class="hint">Could not list the models: {modelsError}</p>}
      <label class="field">
        Instruction
        <textarea
          rows={5}
          value={draft.instruction}
          onInput={(e) => change({ instruction: e.currentTarget.value })}
        />
      </label>
      <fieldset class="choices">
        <legend>Tools</legend>
        {tools.map((tool) => (
          <label key={tool.name} class="check" title={tool.description}>
            <input
              type="checkbox"
              checked={draft.tools.includes(tool.name)}
              onChange={(e) =>
                change({ tools: toggled(draft.tools, tool.name, e.currentTarget.checked) })
              }
            />{' '}
            {tool.name}
          </label>
        ))}
      </fieldset>
      <fieldset class="choices">
        <legend>Tool servers</legend>
        {toolServers.length === 0 && (
          <p class="hint">Add MCP servers in Settings → Tool servers to use their tools here.</p>
        )}
        {toolServers.map((server) => {
          const use = (draft.toolServers ?? []).find((entry) => entry.serverId === server.id);
          const offered = server.tools.filter((tool) => !server.disabledTools.includes(tool.name));
          return (
            <div key={server.id}>
              <label class="check" title={server.url}>
                <input
                  type="checkbox"
                  checked={use !== undefined}
                  onChange={(e) =>
                    change({
                      toolServers: toggledServer(draft, server.id, e.currentTarget.checked),
                    })
                  }
                />{' '}
                {server.name}
              </label>
              {use && offered.length > 0 && (
                <fieldset class="choices nested">
                  <legend class="visually-hidden">Tools of {server.name}</legend>
                  <label class="check all-tools">
                    <input
                      type="checkbox"
                      checked={use.tools === undefined}
                      onChange={(e) =>
                        change({
                          toolServers: withServerTools(
                            draft,
                            server.id,
                            e.currentTarget.checked ? undefined : offered.map((tool) => tool.name),
                          ),
                        })
                      }
                    />{' '}
                    All its tools
                  </label>
                  {use.tools !== undefined &&
                    offered.map((tool) => (
                      <label key={tool.name} class="check" title={tool.description}>
                        <input
                          type="checkbox"
                          checked={use.tools!.includes(tool.name)}
                          onChange={(e) =>
                            change({
                              toolServers: withServerTools(
                                draft,
                                server.id,
                                toggled(use.tools!, tool.name, e.currentTarget.checked),
                              ),
                            })
                          }
                        />{' '}
                        {tool.name}
                      </label>
                    ))}
                </fieldset>
              )}
            </div>
          );
        })}
      </fieldset>
      <KnowledgeChoices
        bases={state.knowledgeBases}
        chosen={draft.knowledgeBaseIds ?? []}
        onChange={(knowledgeBaseIds) => change({ knowledgeBaseIds })}
      />
      <fieldset class="choices">
        <legend>Sub-agents</legend>
        {choices.length === 0 && <p class="hint">Save other agents to use them here.</p>}
        {choices.map((spec) => (
          <label key={spec.id} class="check" title={spec.description}>
            <input
              type="checkbox"
              checked={draft.subAgentIds.includes(spec.id)}
              onChange={(e) =>
                change({
                  subAgentIds: toggled(draft.subAgentIds, spec.id, e.currentTarget.checked),
                })
              }
            />{' '}
            {shownName(spec)}
          </label>
        ))}
      </fieldset>
      <fieldset class="choices">
        <legend>Agents it can call as tools</legend>
        {choices.length === 0 && <p class="hint">Save other agents to use them here.</p>}
        {choices.map((spec) => (
          <label key={spec.id} class="check" title={spec.description}>
            <input
              type="checkbox"
              checked={draft.agentToolIds?.includes(spec.id) ?? false}
              onChange={(e) =>
                change({
                  agentToolIds: toggled(draft.agentToolIds ?? [], spec.id, e.currentTarget.checked),
                })
              }
            />{' '}
            {shownName(spec)}
          </label>
        ))}
      </fieldset>
      <label class="check">
        <input
          type="checkbox"
          checked={draft.resumable}
          onChange={(e) => change({ resumable: e.currentTarget.checked })}
        />{' '}
        Resumable: offer to resume its runs after a reload, a crash, Stop or a lost connection
      </label>
      <label class="check">
        <input
          type="checkbox"
          checked={draft.compactLongChats !== false}
          // Off is stored; on is the default, so it is left out (the draft stays unchanged).
          onChange={(e) =>
            change({ compactLongChats: e.currentTarget.checked ? undefined : false })
          }
        />{' '}
        {/* No "model", "name" or "provider" in it: the other fields are found by those words. */}
        Compact long chats: near the context window, earlier messages are summarised (a rewind
        brings them back)
      </label>
      <label class="check">
        <input
          type="checkbox"
          checked={draft.memory === true}
          // On is stored; off is the default, so it is left out.
          onChange={(e) => change({ memory: e.currentTarget.checked ? true : undefined })}
        />{' '}
        Remembers across sessions: it can look up what was said in your other sessions, and its own
        chats are remembered (see Settings → Memory)
      </label>
      <div class="flow-buttons">
        <button type="submit" class="primary" disabled={saving || !builder.dirty}>
          Save
        </button>
        {saved && !builder.dirty && (
          <button type="button" onClick={() => onUse(saved.agentId)}>
            Use in this session
          </button>
        )}
        <FormStatus text={status} />
      </div>
      {problems.length > 0 && (
        <div class="problems" role="alert">
          <p>The agent cannot be saved yet:</p>
          <ul>
            {problems.map((problem) => (
              <li key={problem}>{problem}</li>
            ))}
          </ul>
        </div>
      )}
      <ErrorBanner text={error} />
    </form>
  );
}
