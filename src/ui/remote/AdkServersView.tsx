import { useEffect, useMemo } from 'preact/hooks';
import { AdkServersModel } from './adk-servers.ts';
import type { RuntimeClient } from '../workbench/workbench.ts';
import { useSnapshot } from '../workbench/use-snapshot.ts';
import { ErrorBanner } from '../common/FormNotices.tsx';

interface Props {
  client: Pick<RuntimeClient, 'runtime'>;
  onOpen: (sessionId: string) => void;
  onNewSession: (agentId: string) => void;
  onClose: () => void;
}

/**
 * Settings → ADK servers: the servers added, a form to add one, and each app's sessions on its
 * server, opened in the workbench like local ones.
 */
export function AdkServersView({ client, onOpen, onNewSession, onClose }: Props) {
  // Made with the view's code, when first opened: the page's first chunk does not carry it.
  const model = useMemo(() => new AdkServersModel(client), [client]);
  const state = useSnapshot(model);
  useEffect(() => {
    void model.start();
  }, [model]);
  const origin = typeof location === 'undefined' ? '' : location.origin;

  return (
    <section class="flows-view adk-servers" aria-label="ADK servers">
      <header class="flows-head">
        <h2>ADK servers</h2>
        <p class="hint">
          Agents served by ADK (<code>adk api_server</code> or <code>adk web</code>, Python or
          TypeScript), used from here with History, rewind and branches. Start the server with{' '}
          <code>--allow_origins {origin}</code> so that this page may reach it.
        </p>
        <button type="button" onClick={onClose}>
          Back to the chat
        </button>
      </header>
      <form
        class="adk-add"
        onSubmit={(event) => {
          event.preventDefault();
          void model.add();
        }}
      >
        <label>
          Server address{' '}
          <input
            type="url"
            required
            value={state.url}
            onInput={(event) => model.edit({ url: event.currentTarget.value })}
          />
        </label>
        <label>
          User id{' '}
          <input
            value={state.userId}
            onInput={(event) => model.edit({ userId: event.currentTarget.value })}
          />
        </label>
        <button type="submit" disabled={state.adding}>
          {state.adding ? 'Checking…' : 'Add server'}
        </button>
      </form>
      <ErrorBanner text={state.error} />
      {state.status && (
        <p class="hint" role="status">
          {state.status}
        </p>
      )}
      {state.servers.length === 0 ? (
        <p class="hint">No server added yet.</p>
      ) : (
        <ul class="adk-server-list">
          {state.servers.map((server) => (
            <li key={server.id}>
              <div class="adk-server-head">
                <strong>{server.url}</strong> <span class="hint">as {server.userId}</span>{' '}
                <button type="button" class="quiet" onClick={() => void model.refresh(server.id)}>
                  Check again
                </button>{' '}
                <button type="button" class="quiet" onClick={() => void model.remove(server.id)}>
                  Remove
                </button>
              </div>
              <ul class="adk-apps">
                {server.apps.map((appName) => {
                  const open =
                    state.open?.serverId === server.id && state.open.appName === appName
                      ? state.open
                      : undefined;
                  return (
                    <li key={appName}>
                      <span class="adk-app">{appName}</span>{' '}
                      <button
                        type="button"
                        onClick={() =>
                          onNewSession(
                            `adk:${encodeURIComponent(server.id)}:${encodeURIComponent(appName)}`,
                          )
                        }
                      >
                        New session
                      </button>{' '}
                      <button
                        type="button"
                        aria-expanded={!!open}
                        onClick={() => void model.showSessions(server.id, appName)}
                      >
                        Sessions
                      </button>
                      {open && (
                        <ul class="adk-sessions" aria-label={`Sessions of ${appName}`}>
                          {open.sessions === undefined ? (
                            <li class="hint">Loading…</li>
                          ) : open.sessions.length === 0 ? (
                            <li class="hint">No sessions yet.</li>
                          ) : (
                            open.sessions.map((session) => (
                              <li key={session.id}>
                                <button
                                  type="button"
                                  class="quiet"
                                  onClick={async () => {
                                    const id = await model.openSession(
                                      server.id,
                                      appName,
                                      session.sessionId,
                                    );
                                    if (id) onOpen(id);
                                  }}
                                >
                                  {session.sessionId}
                                </button>{' '}
                                <span class="hint">
                                  {new Date(session.lastUpdateTime).toLocaleString()}
                                  {session.listed ? ' · in your list' : ''}
                                </span>
                              </li>
                            ))
                          )}
                        </ul>
                      )}
                    </li>
                  );
                })}
              </ul>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
