// Trellis as the UI of an ADK server, through the worker's runtime (what the page calls): a real
// ADK API server (@google/adk-devtools) on 127.0.0.1, its sessions opened, run with streaming,
// approved, rewound into a new session, copied to the browser; and the server failing.

import 'fake-indexeddb/auto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { activeEvents, textOf, type Event } from '../../../src/index.ts';
import { Workbench, type RuntimeClient } from '../../../src/ui/workbench/workbench.ts';
import { servedCopy, servedOpening } from '../../../workers/remote/copies.ts';
import { pendingInputRequests } from '../../../src/ui/chat/input-requests-model.ts';
import { workflowCheckpointRows } from '../../../src/ui/history/checkpoints-model.ts';
import { workflowOf, workflowProgress } from '../../../src/ui/flows/workflow-progress.ts';
import { adkServerForSuite, freePort, startAdkServer } from '../../adk/adk-server.ts';
import { appRuntime, inProcessApi } from '../../support/app-runtime.ts';
import { rejectionOf } from '../../support/helpers.ts';

const adk = adkServerForSuite();
const open = appRuntime;

const texts = (events: readonly Event[]) =>
  events.map((event) => textOf(event.content)).filter((text) => text !== '');

describe('sessions on an ADK server', () => {
  it('lists the apps, opens a session, streams a turn and draws it as a local one', async () => {
    const app = open();
    const added = await app.remote.addServer(adk().url.replace('http://', ''), 'ada');
    expect(added).toMatchObject({
      url: adk().url,
      userId: 'ada',
      apps: ['approval', 'ask', 'echo', 'hostile', 'workflow'],
    });
    const agents = await app.agents();
    const echo = agents.find((agent) => agent.kind === 'remote' && agent.name.startsWith('echo'))!;
    const session = await app.createSession(echo.id);
    expect(session.remote).toMatchObject({ url: adk().url, appName: 'echo' });
    expect((await app.listSessions()).map((s) => s.id)).toContain(session.id);

    const seen: Event[] = [];
    await app.runs.send(session.id, 'hello', (event) => seen.push(event));
    const partials = seen.filter((event) => event.partial);
    // The server streams two chunks; the page gathers them under one id.
    expect(partials.map((event) => textOf(event.content))).toEqual(['You said', ': hello']);
    expect(new Set(partials.map((event) => event.id)).size).toBe(1);
    expect(texts(seen.filter((event) => !event.partial))).toEqual(['hello', 'You said: hello']);

    const opening = await app.openSessionSummary(session.id);
    expect(texts(opening.activeTail.map((entry) => entry.event))).toEqual([
      'hello',
      'You said: hello',
    ]);
    expect(opening.activePath.map((turn) => turn.text)).toEqual(['hello']);
    // The server lists it, under the user it was added with.
    const listed = await app.remote.remoteSessions(added.id, 'echo');
    expect(listed.find((s) => s.id === session.id)).toMatchObject({ listed: true });
    expect((await app.readLog(session.id, 0, 10)).entries).toHaveLength(2);
  });

  it('runs an ADK 2.0 Workflow the server serves: its graph drawn and lit, its node runs listed', async () => {
    const app = open();
    const added = await app.remote.addServer(adk().url);
    const agents = await app.agents();
    const workflow = agents.find((a) => a.kind === 'remote' && a.name.startsWith('workflow'))!;
    // The server describes the app (ADK's /dev/apps/{app}/build_graph): the graph to draw.
    expect(workflow.workflow).toEqual({
      name: 'workflow',
      nodes: [
        { id: 'start', type: 'start', label: 'Start' },
        { id: 'triage', type: 'condition', label: 'triage', rules: [{ output: 'billing' }] },
        { id: 'billing', type: 'function', label: 'billing' },
        { id: 'tech', type: 'function', label: 'tech' },
        { id: 'summary', type: 'function', label: 'summary' },
      ],
      edges: [
        { from: 'start', to: 'triage' },
        { from: 'triage', to: 'billing', when: 'billing' },
        { from: 'triage', to: 'tech', when: 'else' },
        { from: 'billing', to: 'summary' },
        { from: 'tech', to: 'summary' },
      ],
    });
    const echo = agents.find((a) => a.kind === 'remote' && a.name.startsWith('echo'))!;
    expect(echo.workflow).toBeUndefined();
    const session = await app.createSession(workflow.id);
    const seen: Event[] = [];
    await app.runs.send(session.id, 'my bill is wrong', (event) => seen.push(event));
    const stored = seen.filter((event) => !event.partial && event.author !== 'user');
    expect(stored.map((e) => [e.nodeInfo?.path, e.output])).toEqual([
      ['workflow.triage', 'Triage: billing'],
      ['workflow.billing', 'Billing: a refund is on its way.'],
      ['workflow.summary', 'Done (Billing: a refund is on its way.)'],
    ]);
    // Opened again from the server: the page finds the workflow and lists its node runs.
    const opening = await app.openSessionSummary(session.id);
    const active = opening.activeTail.map((entry) => entry.event);
    expect(workflowOf(active)).toBe('workflow');
    const rows = workflowCheckpointRows(active, session.id, 'workflow', { running: false });
    expect(rows.map((row) => [row.node, row.status])).toEqual([
      ['triage', 'done'],
      ['billing', 'done'],
      ['summary', 'done'],
    ]);
    expect(rows[0]!.stateAfter).toEqual({ question: 'my bill is wrong' });
    expect(added.apps).toContain('workflow');
    // The nodes it ran light the drawing; tech, on the route not taken, does not.
    expect(workflowProgress(active, 'workflow')).toMatchObject({
      current: [],
      visited: ['start', 'triage', 'billing', 'summary'],
    });
    // A refresh reads the graphs again.
    const fresh = await app.remote.refreshServer(added.id);
    expect(Object.keys(fresh.graphs ?? {})).toEqual(['workflow']);
  });

  it("answers the server's confirmation request, and the tool runs", async () => {
    const app = open();
    const added = await app.remote.addServer(adk().url);
    const session = await app.createSession(`adk:${added.id}:approval`);
    const seen: Event[] = [];
    await app.runs.send(session.id, 'send 5', (event) => seen.push(event));
    const request = seen
      .flatMap((event) => event.content?.parts ?? [])
      .find((part) => part.functionCall?.name === 'adk_request_confirmation')!.functionCall!;
    await app.runs.answer(session.id, request.id!, true, undefined, () => {});
    const opening = await app.openSessionSummary(session.id);
    expect(opening.state).toMatchObject({ sent: 5 });
    // The tool's artifact, through the server's artifact routes.
    expect(opening.artifacts).toEqual([
      { filename: 'receipt.txt', versions: [0], scope: 'session' },
    ]);
    expect(await app.loadArtifact(session.id, 'receipt.txt')).toMatchObject({
      text: 'Sent 5 coins.',
    });
    expect(texts(opening.activeTail.map((entry) => entry.event))).toContain('Done: {"sent":5}');
  });

  it("gives a long-running tool's result on the server, and the run goes on", async () => {
    const app = open();
    const added = await app.remote.addServer(adk().url);
    const session = await app.createSession(`adk:${added.id}:ask`);
    await app.runs.send(session.id, 'refund 30', () => {});
    let opening = await app.openSessionSummary(session.id);
    const waiting = pendingInputRequests(opening.activeTail.map((entry) => entry.event));
    expect(waiting).toEqual([
      expect.objectContaining({
        callId: 'refund-30',
        name: 'request_refund',
        kind: 'result',
        progress: { status: 'pending', amount: 30 },
      }),
    ]);
    await app.runs.respond(
      session.id,
      'refund-30',
      'request_refund',
      { status: 'approved' },
      () => {},
    );
    opening = await app.openSessionSummary(session.id);
    const events = opening.activeTail.map((entry) => entry.event);
    expect(texts(events).at(-1)).toBe('Got request_refund: {"status":"approved"}');
    expect(pendingInputRequests(events)).toEqual([]);
  });

  it('rewinds into a new session (this server has no rewind) and says what it kept', async () => {
    const app = open();
    const added = await app.remote.addServer(adk().url);
    const session = await app.createSession(`adk:${added.id}:echo`);
    await app.runs.send(session.id, 'one', () => {});
    await app.runs.send(session.id, 'two', () => {});
    const opening = await app.openSessionSummary(session.id);
    const second = opening.activePath[1]!.invocationId;
    const rewound = await app.remote.rewind(session.id, second);
    expect(rewound.how).toBe('new-session');
    expect(rewound.sessionId).not.toBe(session.id);
    // ADK TypeScript's server keeps only the state of a session made with events: said plainly.
    expect(rewound.note).toMatch(/kept only the state/);
    const fresh = (await app.listSessions()).find((s) => s.id === rewound.sessionId)!;
    expect(fresh.remote?.rewoundFrom).toMatchObject({ sessionId: session.id, note: rewound.note });
    // The old session is as it was.
    const old = await app.openSessionSummary(session.id);
    expect(old.activePath.map((turn) => turn.text)).toEqual(['one', 'two']);
  });

  it('copies a session to the browser, where it rewinds like any local one', async () => {
    const app = open();
    const added = await app.remote.addServer(adk().url);
    const session = await app.createSession(`adk:${added.id}:echo`);
    await app.runs.send(session.id, 'first', () => {});
    await app.runs.send(session.id, 'second', () => {});
    const local = await app.remote.copyToBrowser(session.id);
    expect(local.remote).toBeUndefined();
    // It keeps its title and its agent, the server's app (reopened, it is still so).
    expect([local.title, local.agentId]).toEqual([session.title, session.agentId]);
    const listed = (await app.listSessions()).find((s) => s.id === local.id)!;
    expect([listed.title, listed.agentId]).toEqual([session.title, session.agentId]);
    expect((await app.openSessionSummary(local.id)).summary.agentId).toBe(session.agentId);
    const copied = await app.openSession(local.id);
    expect(texts(copied.events)).toEqual([
      'first',
      'You said: first',
      'second',
      'You said: second',
    ]);
    const secondTurn = copied.events[2]!.invocationId;
    await app.rewinds.rewind(local.id, secondTurn);
    const after = await app.openSession(local.id);
    expect(texts(activeEvents(after.events))).toEqual(['first', 'You said: first']);
    // The app answers only in its own sessions: a message here is refused, not answered by another.
    const refused = await rejectionOf(app.runs.send(local.id, 'third', () => {}));
    expect(refused.message).toMatch(/the ADK server's app "echo".*choose an agent of this browser/);
    const answered = activeEvents((await app.openSession(local.id)).events);
    expect(texts(answered)).toEqual(['first', 'You said: first', 'third']);
  });

  it('copies the artifacts with their bytes, from the server’s artifact routes', async () => {
    const app = open();
    const added = await app.remote.addServer(adk().url);
    const session = await app.createSession(`adk:${added.id}:approval`);
    const seen: Event[] = [];
    await app.runs.send(session.id, 'send 7', (event) => seen.push(event));
    const request = seen
      .flatMap((event) => event.content?.parts ?? [])
      .find((part) => part.functionCall?.name === 'adk_request_confirmation')!.functionCall!;
    await app.runs.answer(session.id, request.id!, true, undefined, () => {});
    const local = await app.remote.copyToBrowser(session.id);
    const opening = await app.openSessionSummary(local.id);
    expect(opening.artifacts).toEqual([
      { filename: 'receipt.txt', versions: [0], scope: 'session' },
    ]);
    expect(await app.loadArtifact(local.id, 'receipt.txt')).toMatchObject({
      text: 'Sent 7 coins.',
    });
  });

  it('refuses what only works in the browser, with a clear message', async () => {
    const app = open();
    const added = await app.remote.addServer(adk().url);
    const session = await app.createSession(`adk:${added.id}:echo`);
    await app.runs.send(session.id, 'hi', () => {});
    const turn = (await app.openSessionSummary(session.id)).activePath[0]!.invocationId;
    const error = await rejectionOf(app.runs.regenerate(session.id, turn, () => {}));
    expect(error.message).toMatch(
      /Regenerate works on sessions in this browser: use "Copy to this browser"/,
    );
  });

  it('says how to reach a server that is not there, and adds nothing', async () => {
    const app = open();
    const port = await freePort();
    const error = await rejectionOf(app.remote.addServer(`http://127.0.0.1:${port}`));
    expect(error.name).toBe('AdkServerUnreachableError');
    expect(error.message).toMatch(/could not be reached.*--allow_origins/);
    expect(await app.remote.servers()).toEqual([]);
    const bad = await rejectionOf(app.remote.addServer('ftp://example.com'));
    expect(bad.message).toMatch(/http or https/);

    // A web server that is not an ADK server: its page is no list of apps.
    const page = createServer((_, response) => response.end('<!doctype html><p>Hello</p>'));
    await new Promise<void>((resolve) => page.listen(0, '127.0.0.1', resolve));
    const { port: pagePort } = page.address() as AddressInfo;
    try {
      const notAdk = await rejectionOf(app.remote.addServer(`http://127.0.0.1:${pagePort}`));
      expect(notAdk.name).toBe('AdkServerError');
      expect(notAdk.message).toMatch(
        /did not answer JSON: is http:\/\/127\.0\.0\.1:\d+ an ADK API server\?/,
      );
    } finally {
      page.close();
    }
    expect(await app.remote.servers()).toEqual([]);
  });

  // Each starts a server of its own (a few seconds on a loaded machine): more than the default 5 s.
  it(
    'offers to resume a run whose stream broke when the server went away',
    { timeout: 30_000 },
    async () => {
      const own = await startAdkServer();
      const app = open();
      const added = await app.remote.addServer(own.url);
      const session = await app.createSession(`adk:${added.id}:echo`);
      let partials = 0;
      const run = app.runs.send(session.id, 'count slowly', (event) => {
        if (event.partial && ++partials === 2) void own.kill();
      });
      const error = await rejectionOf(run);
      expect(error.name).toBe('AdkServerUnreachableError');
      const offered = (await app.runs.interruptedRuns()).filter((r) => r.sessionId === session.id);
      expect(offered).toHaveLength(1);
      expect(offered[0]).toMatchObject({
        status: 'interrupted',
        cause: 'failed',
        turnText: 'count slowly',
      });
    },
  );
});

describe('the app opening with sessions on an ADK server that is gone', () => {
  it(
    'opens on a session in this browser, without an error, and keeps the remote ones listed',
    { timeout: 30_000 },
    async () => {
      const own = await startAdkServer();
      const app = open();
      const added = await app.remote.addServer(own.url);
      const remote = await app.createSession(`adk:${added.id}:echo`);
      await own.kill();
      const client: RuntimeClient = {
        runtime: inProcessApi(app),
        callback: (listener) => listener,
        onBroadcast: () => () => {},
      };
      const workbench = new Workbench(client);
      await workbench.init();
      const state = workbench.snapshot;
      expect(state.error).toBeUndefined();
      expect(state.ready).toBe(true);
      expect(state.current?.summary.remote).toBeUndefined();
      expect(state.sessions.map((s) => s.id)).toContain(remote.id);
    },
  );
});

describe('a served session with rewind markers, as ADK Python writes them', () => {
  it('opens with the active path and the branch the marker left, as a local session would', async () => {
    // Python's timestamps are seconds; `rewind_async` appends a user event whose actions name the
    // invocation to go back before and the state delta that restores the state.
    const turn = (id: string, invocationId: string, author: string, text: string, t: number) => ({
      id,
      invocationId,
      author,
      timestamp: 1_795_000_000 + t,
      content: { role: author === 'user' ? 'user' : 'model', parts: [{ text }] },
      actions: { stateDelta: author === 'user' ? {} : { last: text }, artifactDelta: {} },
    });
    const served = {
      id: 'py-1',
      appName: 'echo',
      userId: 'user',
      state: { last: 'You said: three' },
      lastUpdateTime: 1_795_000_010.5,
      events: [
        turn('a', 'i1', 'user', 'one', 0),
        turn('b', 'i1', 'echo', 'You said: one', 1),
        turn('c', 'i2', 'user', 'two', 2),
        turn('d', 'i2', 'echo', 'You said: two', 3),
        {
          id: 'm',
          invocationId: 'i3',
          author: 'user',
          timestamp: 1_795_000_004,
          actions: {
            stateDelta: { last: 'You said: one' },
            artifactDelta: {},
            rewindBeforeInvocationId: 'i2',
          },
        },
        turn('e', 'i4', 'user', 'three', 5),
        turn('f', 'i4', 'echo', 'You said: three', 6),
      ],
    };
    const id = 'adk:server:echo:py-1';
    const opening = await servedOpening(await servedCopy(id, served), id);
    expect(opening.activePath.map((t) => t.text)).toEqual(['one', 'three']);
    expect(opening.activePath[0]!.children?.map((t) => t.text)).toEqual(['two', 'three']);
    expect(texts(opening.activeTail.map(({ event }) => event))).toEqual([
      'one',
      'You said: one',
      'three',
      'You said: three',
    ]);
    expect(opening.state).toMatchObject({ last: 'You said: three' });
  });
});

describe('answering a paused call on a server', () => {
  it("sends the call's event and invocation, and the plain answer where a server refuses them", async () => {
    // In front of the real server, one that refuses a resume as ADK Python does for an app that
    // is not resumable, and records what each run asked.
    const asked: Record<string, unknown>[] = [];
    const front = createServer(async (request, response) => {
      const chunks: Buffer[] = [];
      for await (const chunk of request) chunks.push(chunk as Buffer);
      const body = Buffer.concat(chunks);
      if (request.url === '/run_sse') {
        const run = JSON.parse(body.toString()) as Record<string, unknown>;
        asked.push(run);
        if (run.invocationId) {
          response.writeHead(500, { 'content-type': 'application/json' });
          response.end(
            JSON.stringify({ error: 'invocation_id is provided but the app is not resumable.' }),
          );
          return;
        }
      }
      const forwarded = await fetch(`${adk().url}${request.url}`, {
        method: request.method!,
        headers: { 'content-type': 'application/json' },
        ...(body.length ? { body } : {}),
      });
      response.writeHead(forwarded.status, {
        'content-type': forwarded.headers.get('content-type') ?? 'application/json',
      });
      response.end(Buffer.from(await forwarded.arrayBuffer()));
    });
    await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
    try {
      const app = open();
      const { port } = front.address() as AddressInfo;
      const added = await app.remote.addServer(`http://127.0.0.1:${port}`);
      const session = await app.createSession(`adk:${added.id}:approval`);
      const seen: Event[] = [];
      await app.runs.send(session.id, 'send 3', (event) => seen.push(event));
      const callEvent = seen.find((event) =>
        event.content?.parts.some((part) => part.functionCall?.name === 'adk_request_confirmation'),
      )!;
      const requestId = callEvent.content!.parts.find((p) => p.functionCall)!.functionCall!.id!;
      await app.runs.answer(session.id, requestId, true, undefined, () => {});
      // First the resume as ADK's API takes it, then, refused, the plain answer.
      expect(asked.slice(1).map((run) => [run.functionCallEventId, run.invocationId])).toEqual([
        [callEvent.id, callEvent.invocationId],
        [undefined, undefined],
      ]);
      expect((await app.openSessionSummary(session.id)).state).toMatchObject({ sent: 3 });
    } finally {
      front.close();
    }
  });
});
