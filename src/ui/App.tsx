// A first page over the runtime: one session, a message box, the conversation and its state.

import { useEffect, useState } from 'preact/hooks';
import { textOf, type Event, type Session } from '../index.ts';
import { getRuntime, proxy } from './runtime-client.ts';

export function App() {
  const [session, setSession] = useState<Session>();
  const [draft, setDraft] = useState('');
  const [streaming, setStreaming] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    const runtime = getRuntime();
    void (async () => {
      const [latest] = await runtime.listSessions();
      const id = latest?.id ?? (await runtime.createSession()).id;
      setSession(await runtime.getSession(id));
    })().catch((e: Error) => setError(e.message));
  }, []);

  async function send(event: SubmitEvent) {
    event.preventDefault();
    if (!session || !draft.trim()) return;
    const runtime = getRuntime();
    setBusy(true);
    setError('');
    const text = draft.trim();
    setDraft('');
    try {
      await runtime.runTurn(
        session.id,
        text,
        proxy((e: Event) =>
          setStreaming((current) => (e.partial ? current + textOf(e.content) : '')),
        ),
      );
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setStreaming('');
      setSession(await runtime.getSession(session.id));
      setBusy(false);
    }
  }

  const turns = (session?.events ?? []).filter((e) => e.content && textOf(e.content));
  return (
    <main>
      <h1>Trellis</h1>
      <p>Offline demo state keeper (deterministic rules, not an LLM).</p>
      <ol aria-label="Conversation">
        {turns.map((e) => (
          <li key={e.id}>
            <strong>{e.author}:</strong> {textOf(e.content)}
          </li>
        ))}
        {streaming && <li aria-live="polite">{streaming}</li>}
      </ol>
      {error && <p role="alert">{error}</p>}
      <form onSubmit={send}>
        <input
          aria-label="Message"
          value={draft}
          onInput={(e) => setDraft(e.currentTarget.value)}
          placeholder="set color to red"
        />
        <button type="submit" disabled={busy}>
          Send
        </button>
      </form>
      <section aria-label="State">
        <h2>State</h2>
        <pre>{JSON.stringify(session?.state ?? {}, null, 2)}</pre>
      </section>
    </main>
  );
}
