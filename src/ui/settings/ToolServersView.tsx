import { useEffect, useMemo } from 'preact/hooks';
import { ToolServersModel, policyChoices, sourcesText } from './tool-servers-model.ts';
import type { RuntimeClient } from '../workbench/workbench.ts';
import { useSnapshot } from '../workbench/use-snapshot.ts';
import type { ToolPolicy } from '../../tools/tool-policy.ts';
import { ErrorBanner, FormStatus } from '../common/FormNotices.tsx';

interface Props {
  client: Pick<RuntimeClient, 'runtime'>;
  onClose: () => void;
}

/**
 * Settings → Tool servers: MCP servers (Streamable HTTP) agents may use, each with the headers it
 * needs (a token is kept in this browser only and shown masked), Test connection, and its tools
 * switched on or off.
 */
export function ToolServersView({ client, onClose }: Props) {
  const model = useMemo(() => new ToolServersModel(client), [client]);
  const state = useSnapshot(model);
  useEffect(() => {
    void model.start();
  }, [model]);
  const { draft } = state;
  const origin = typeof location === 'undefined' ? '' : location.origin;

  return (
    <section class="flows-view tool-servers" aria-label="Tool servers">
      <header class="flows-head">
        <h2>Tool servers</h2>
        <p class="hint">
          MCP servers (Streamable HTTP) whose tools your agents can use. A server used from this
          page must allow its origin ({origin}) and expose the Mcp-Session-Id header: see
          docs/tools.md.
        </p>
        <button type="button" onClick={onClose}>
          Back to the chat
        </button>
      </header>
      <div class="flows-body">
        <nav class="flows-list" aria-label="Tool server list">
          <ul>
            {state.servers.map((server) => (
              <li key={server.id} class={server.id === draft.id ? 'current' : ''}>
                <button type="button" class="flow-open" onClick={() => model.open(server)}>
                  {server.name}
                </button>
              </li>
            ))}
          </ul>
          <button type="button" onClick={() => model.open(undefined)}>
            Add a server
          </button>
        </nav>
        <form
          class="flow-editor provider-form"
          aria-label={draft.id ? `Tool server ${draft.name}` : 'New tool server'}
          onSubmit={(event) => {
            event.preventDefault();
            void model.save();
          }}
        >
          <label class="field">
            Name
            <input
              value={draft.name}
              onInput={(e) => model.edit({ name: e.currentTarget.value })}
            />
          </label>
          <label class="field">
            Server URL
            <input
              value={draft.url}
              placeholder="http://localhost:3000/mcp"
              onInput={(e) => model.edit({ url: e.currentTarget.value })}
            />
          </label>
          <fieldset class="choices">
            <legend>Headers</legend>
            {draft.headers.map((header, index) => (
              <div class="header-row" key={index}>
                <input
                  aria-label={`Header name ${index + 1}`}
                  value={header.name}
                  onInput={(e) =>
                    model.edit({
                      headers: draft.headers.map((h, i) =>
                        i === index ? { ...h, name: e.currentTarget.value } : h,
                      ),
                    })
                  }
                />
                <input
                  type="password"
                  autocomplete="off"
                  aria-label={`Header value ${index + 1}`}
                  value={header.value}
                  placeholder={
                    header.hint ? `${header.hint} stored; type to replace it` : 'e.g. Bearer …'
                  }
                  onInput={(e) =>
                    model.edit({
                      headers: draft.headers.map((h, i) =>
                        i === index ? { ...h, value: e.currentTarget.value } : h,
                      ),
                    })
                  }
                />
              </div>
            ))}
            <button
              type="button"
              onClick={() => model.edit({ headers: [...draft.headers, { name: '', value: '' }] })}
            >
              Add a header
            </button>
          </fieldset>
          <div class="flow-buttons">
            <button type="button" disabled={state.busy} onClick={() => void model.test()}>
              Test connection
            </button>
            <button type="submit" class="primary" disabled={state.busy}>
              Save
            </button>
            {draft.id && (
              <button
                type="button"
                class="danger"
                disabled={state.busy}
                onClick={() => void model.remove(draft.id!)}
              >
                Remove
              </button>
            )}
            <FormStatus text={state.status} label="Connection" />
          </div>
          <ErrorBanner text={state.error} />
          {state.tools && (
            <fieldset class="choices server-tools">
              <legend>Tools offered to agents</legend>
              {state.tools.map((tool) => (
                <div key={tool.name}>
                  <label class="check">
                    <input
                      type="checkbox"
                      checked={!draft.disabledTools.includes(tool.name)}
                      onChange={(e) => model.toggleTool(tool.name, e.currentTarget.checked)}
                    />{' '}
                    {tool.name}
                  </label>{' '}
                  {tool.description && (
                    <span class="hint" title={tool.description}>
                      {clipped(tool.description)}
                    </span>
                  )}
                </div>
              ))}
            </fieldset>
          )}
        </form>
      </div>
      <section class="tool-policies" aria-label="Approval policies">
        <h3>Approval policies</h3>
        <p class="hint">
          Whether a tool may run without asking you first, for agents and flows alike, set here
          before its first call or with <em>Allow always for this tool</em> on its approval card. A
          tool server’s tool asks before each call unless you allow it; a built-in tool runs unless
          you ask to be asked; <em>never</em> refuses it. A policy is by the tool’s name.
        </p>
        {state.policies.unlistedServers.length > 0 && (
          <p class="hint">
            Not listed yet (press Test connection, then Save):{' '}
            {state.policies.unlistedServers.join(', ')}.
          </p>
        )}
        <ul>
          {state.policies.tools.map((row) => (
            <li key={row.name} class="tool-policy">
              <label>
                <code>{row.name}</code>
                <select
                  aria-label={`Approval policy for ${row.name}`}
                  value={row.policy ?? ''}
                  disabled={state.busy}
                  onChange={(e) => {
                    const value = e.currentTarget.value;
                    void model.setPolicy(row.name, value ? (value as ToolPolicy) : undefined);
                  }}
                >
                  {policyChoices(row).map((choice) => (
                    <option key={choice.value} value={choice.value}>
                      {choice.label}
                    </option>
                  ))}
                </select>
              </label>
              <span class="hint" title={row.description || undefined}>
                {sourcesText(row)}
              </span>
            </li>
          ))}
        </ul>
      </section>
    </section>
  );
}

/** A server's description of a tool, cut short for the list (the whole of it in the tooltip). */
function clipped(text: string): string {
  return text.length > 140 ? `${text.slice(0, 139)}…` : text;
}
