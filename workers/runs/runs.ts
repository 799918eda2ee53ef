// The runs of the app's sessions, as the worker does them: a message sent, an answer or a resume,
// an edited or regenerated turn, and the list of runs to resume.
// - every run holds the session's lock (one tab at a time) and can be stopped: it is then
//   interrupted, and can be resumed;
// - while it runs it tells other tabs what changed, after each stored event;
// - a run of a session on an ADK server goes to AppRemote;
// - a run that ended (not failed) may title its session, after it let go of everything
//   (sessions/model-titles.ts: never waited for, never failing the run).

import { DEFAULT_AGENT_ID } from '../../src/demos/index.ts';
import { FORM_STATE_KEY } from '../../src/flows/flow.ts';
import {
  InvalidRequestError,
  InvocationNotFoundError,
  REQUEST_CONFIRMATION_FUNCTION,
  textOf,
  type Content,
  type Event,
  type IndexedDbSessionService,
  type InterruptedInvocation,
  type RunConfig,
  type Runner,
} from '../../src/index.ts';
import type { IndexedDbAppStore, SessionMeta } from '../../src/store/app-store.ts';
import type { RunRecord } from '../../src/store/session-service.ts';
import { isRemoteId, localOnly } from '../remote/adk-servers.ts';
import type { AppAgents } from '../agents/agents.ts';
import { REWIND_OWNER } from '../flows/flows.ts';
import type { AppRemote } from '../remote/remote.ts';
import { MODEL_CHAT_ID } from '../agents/chat-settings.ts';
import { APP_NAME, DEFAULT_TITLE, USER_ID, userMessage, userText } from '../sessions/sessions.ts';
import { ModelTitles, type TitleDeps } from '../sessions/model-titles.ts';
import { firstMessageTitle } from '../sessions/title-prompt.ts';
import type {
  AgentInfo,
  InterruptedRun,
  OutgoingAttachment,
  RunCause,
  RuntimeBroadcast,
} from '../protocol.ts';
import type { SessionLocks } from './session-locks.ts';
import { formDelta, formDeltaOfText, isFormTurn, startFormOf } from './start-form-values.ts';

/** Called with each event of a run as it comes (partial ones included). */
export type EventListener = (event: Event) => void;

/** What AppRuntime lends: its services, and its ways of reading a session's record. */
export interface RunDeps {
  sessions: IndexedDbSessionService;
  store: IndexedDbAppStore;
  locks: SessionLocks;
  broadcast: (message: RuntimeBroadcast) => void;
  agents: AppAgents;
  remote: AppRemote;
  runnerFor: (sessionId: string) => Promise<Runner>;
  meta: (sessionId: string) => Promise<SessionMeta>;
  /** After a run that ended (not failed), still under the lock, with the turns it ran. */
  afterTurn?: (sessionId: string, invocationIds: ReadonlySet<string>) => Promise<void>;
  /** The providers and the chat with a model: a chat's files, titles written by the model. */
  models: Pick<TitleDeps, 'providers' | 'modelChat'>;
}

export class AppRuns {
  /** Stops the run of a session (the Stop button). */
  private readonly controllers = new Map<string, AbortController>();

  /** Titles written by the model: after a first answer, and the menu's "Write a title". */
  readonly titles: ModelTitles;

  constructor(private readonly deps: RunDeps) {
    this.titles = new ModelTitles({ ...deps, ...deps.models });
  }

  /**
   * Sends a message as a new turn, with the files attached to it, or a flow's start form: its
   * values (`form`, by field name), checked against the session's flow before anything is
   * written, go with the message as its state delta (start-form-values.ts).
   */
  async send(
    sessionId: string,
    text: string,
    onEvent: EventListener,
    attachments: readonly OutgoingAttachment[] = [],
    form?: Readonly<Record<string, unknown>>,
  ): Promise<void> {
    if (isRemoteId(sessionId)) {
      if (attachments.length > 0)
        throw new InvalidRequestError('Files are not sent to ADK servers yet: send the text alone');
      if (form) throw new InvalidRequestError('ADK servers take no start form: send a message');
      return this.deps.remote.send(sessionId, text, onEvent);
    }
    let stateDelta: Record<string, unknown> | undefined;
    if (form) {
      const agent = await this.agentOf(sessionId);
      const startForm = startFormOf(agent.flow);
      if (!startForm)
        throw new InvalidRequestError(`${agent.name} takes no start form: send a message instead`);
      if (attachments.length > 0)
        throw new InvalidRequestError('A start form is sent without files');
      stateDelta = formDelta(startForm, form);
    }
    const message =
      attachments.length === 0
        ? userText(text)
        : userMessage(text, attachments, (await this.agentOf(sessionId)).attachments);
    await this.run(sessionId, onEvent, async (runner, runConfig) => {
      // Written beside the run, not before it: the model's first token need not wait for it.
      const titled = this.titleFromFirstMessage(sessionId, message);
      // Awaited after the run; a run that fails says why itself, and its failure comes first.
      titled.catch(() => undefined);
      const events = runner.runAsync({
        userId: USER_ID,
        sessionId,
        newMessage: message,
        ...(stateDelta ? { stateDelta } : {}),
        runConfig,
      });
      return (async function* () {
        yield* events;
        await titled;
      })();
    });
  }

  /** Stops the session's run; it is then interrupted and can be resumed. */
  stop(sessionId: string): void {
    this.deps.remote.stop(sessionId);
    this.controllers.get(sessionId)?.abort();
  }

  /**
   * Runs a turn's message again with new text (Edit): the files it carried go with it. The old
   * version stays as a branch. A turn the start form began stays one: its values are read back
   * from the edited text (one `Label: value` line per field), and refused, with nothing written,
   * if they do not read so.
   */
  async edit(
    sessionId: string,
    invocationId: string,
    text: string,
    onEvent: EventListener,
  ): Promise<void> {
    localOnly(sessionId, 'Edit');
    const first = await turnFirstEvent(this.deps.sessions, sessionId, invocationId);
    const startForm = isFormTurn(first)
      ? startFormOf((await this.agentOf(sessionId)).flow)
      : undefined;
    const stateDelta = startForm && formDeltaOfText(startForm, text);
    const files = first?.content?.parts.filter((part) => part.inlineData);
    const newMessage = userText(text);
    if (files?.length) newMessage.parts.push(...files);
    await this.editRun(sessionId, invocationId, newMessage, onEvent, stateDelta);
  }

  /**
   * Asks the same message of a turn again (Regenerate), with the start form's values it began
   * with: the old answer stays as a branch.
   */
  async regenerate(sessionId: string, invocationId: string, onEvent: EventListener): Promise<void> {
    localOnly(sessionId, 'Regenerate');
    const first = await turnFirstEvent(this.deps.sessions, sessionId, invocationId);
    const message = first?.content;
    if (!message || message.role !== 'user' || message.parts.every((part) => part.functionResponse))
      throw new InvalidRequestError('Only a turn that began with your message can be regenerated');
    const stateDelta = isFormTurn(first)
      ? { [FORM_STATE_KEY]: first.actions.stateDelta[FORM_STATE_KEY] }
      : undefined;
    await this.editRun(sessionId, invocationId, message, onEvent, stateDelta);
  }

  /** A turn's message run again in its place; `stateDelta` goes with it (a start form's values). */
  private async editRun(
    sessionId: string,
    invocationId: string,
    newMessage: Content,
    onEvent: EventListener,
    stateDelta?: Record<string, unknown>,
  ): Promise<void> {
    await this.run(sessionId, onEvent, async (runner, runConfig) => {
      const request = { userId: USER_ID, sessionId, newMessage, runConfig };
      if (!stateDelta) return runner.editMessageAsync({ ...request, invocationId });
      // editMessageAsync takes no state delta: its rewind, then the turn with the delta.
      await runner.rewindAsync({
        userId: USER_ID,
        sessionId,
        rewindBeforeInvocationId: invocationId,
      });
      return runner.runAsync({ ...request, stateDelta });
    });
  }

  async resume(sessionId: string, invocationId: string, onEvent: EventListener): Promise<void> {
    if (isRemoteId(sessionId)) return this.deps.remote.resume(sessionId, invocationId, onEvent);
    await this.run(sessionId, onEvent, async (runner, runConfig) =>
      runner.runAsync({
        userId: USER_ID,
        sessionId,
        invocationId,
        runConfig,
      }),
    );
  }

  /** Answers a confirmation request (Approve / Reject), which resumes the paused run. */
  async answer(
    sessionId: string,
    requestId: string,
    confirmed: boolean,
    payload: unknown,
    onEvent: EventListener,
  ): Promise<void> {
    const response = { confirmed, ...(payload === undefined || payload === '' ? {} : { payload }) };
    await this.respond(sessionId, requestId, REQUEST_CONFIRMATION_FUNCTION, response, onEvent);
  }

  /**
   * Answers a paused call (a long-running tool, a question to the user) with its response, as
   * the user's function response: the run that waits for it goes on.
   */
  async respond(
    sessionId: string,
    callId: string,
    name: string,
    response: Record<string, unknown>,
    onEvent: EventListener,
  ): Promise<void> {
    if (isRemoteId(sessionId))
      return this.deps.remote.respond(sessionId, callId, name, response, onEvent);
    const newMessage: Content = {
      role: 'user',
      parts: [{ functionResponse: { id: callId, name, response } }],
    };
    await this.run(sessionId, onEvent, async (runner, runConfig) =>
      runner.runAsync({
        userId: USER_ID,
        sessionId,
        newMessage,
        runConfig,
      }),
    );
  }

  /**
   * Runs that a reload, a crash, Stop, a failure or a rewind to a checkpoint cut off, and runs
   * waiting for an answer, each with its turn's text and why it stopped.
   */
  async interruptedRuns(): Promise<InterruptedRun[]> {
    const { agents, remote, sessions, store } = this.deps;
    const runner = await agents.runner(DEFAULT_AGENT_ID);
    const [runs, metas, records] = await Promise.all([
      runner.listInterruptedInvocations({ userId: USER_ID }),
      store.listSessionMeta(APP_NAME, USER_ID),
      sessions.listRuns({ appName: APP_NAME, userId: USER_ID }),
    ]);
    const titles = new Map(metas.map((meta) => [meta.sessionId, meta.title]));
    const agentIds = new Map(metas.map((meta) => [meta.sessionId, meta.agentId]));
    const byRun = new Map(records.map((record) => [record.invocationId, record]));
    const offered = await Promise.all(
      runs.map((run) => agents.resumable(agentIds.get(run.sessionId) ?? DEFAULT_AGENT_ID)),
    );
    const remoteTitles = new Map((await remote.listSessions()).map((s) => [s.id, s.title]));
    const remoteRuns = remote.interruptedRuns(remoteTitles);
    const local = await Promise.all(
      runs
        .filter((_, i) => offered[i])
        .map(async (run) => ({
          ...run,
          sessionTitle: titles.get(run.sessionId) ?? DEFAULT_TITLE,
          turnText: await this.turnText(run.sessionId, run.invocationId),
          cause: causeOf(run, byRun.get(run.invocationId)),
        })),
    );
    return [...local, ...remoteRuns];
  }

  /** The text of the message that began a turn ('' when there is none to show). */
  private async turnText(sessionId: string, invocationId: string): Promise<string> {
    // A run whose first event is not there (left by a kill before it was written) has none.
    const first = await turnFirstEvent(this.deps.sessions, sessionId, invocationId).catch(
      () => undefined,
    );
    const text = textOf(first?.content).trim();
    return text.length > 80 ? `${text.slice(0, 79)}…` : text;
  }

  /** Which of these sessions another tab (or this one) is running right now. */
  async busySessions(): Promise<string[]> {
    return [...(await this.deps.locks.held())];
  }

  /**
   * Runs a stream of events under the session's lock, with a Stop button, handing each event to
   * `onEvent` and telling other tabs as events are stored.
   */
  async run(
    sessionId: string,
    onEvent: EventListener,
    start: (runner: Runner, runConfig: RunConfig) => Promise<AsyncGenerator<Event, void>>,
  ): Promise<void> {
    const { broadcast } = this.deps;
    const turns = new Set<string>();
    await this.deps.locks.withLock(sessionId, async () => {
      const controller = new AbortController();
      this.controllers.set(sessionId, controller);
      broadcast({ type: 'busy-changed', sessionId, busy: true });
      const runConfig: RunConfig = {
        signal: controller.signal,
        streamingMode: 'sse',
        // A file attached to a message is also an artifact of the session (as in adk-web).
        saveInputBlobsAsArtifacts: true,
        // The page shows the user's message as saved only from now on (a kill before loses it).
        onMessageStored: (event) => {
          turns.add(event.invocationId);
          onEvent(event);
          broadcast({ type: 'session-changed', sessionId });
        },
      };
      try {
        const runner = await this.deps.runnerFor(sessionId);
        for await (const event of await start(runner, runConfig)) {
          turns.add(event.invocationId);
          onEvent(event);
          if (!event.partial) broadcast({ type: 'session-changed', sessionId });
        }
        await this.deps.afterTurn?.(sessionId, turns);
      } finally {
        this.controllers.delete(sessionId);
        broadcast({ type: 'busy-changed', sessionId, busy: false });
        broadcast({ type: 'session-changed', sessionId });
      }
    });
    this.titles.afterRun(sessionId, turns);
  }

  /** The session's agent: what its messages may carry, and its flow (a start form's fields). */
  private async agentOf(sessionId: string): Promise<AgentInfo> {
    const { agentId } = await this.deps.meta(sessionId);
    const agent = (await this.deps.agents.list()).find((info) => info.id === agentId);
    if (!agent) throw new InvalidRequestError(`There is no agent ${agentId}`);
    // A chat with a model takes the files of the provider its settings chose.
    if (agentId !== MODEL_CHAT_ID) return agent;
    const attachments = await this.deps.models.modelChat.attachmentsOf(sessionId);
    return { ...agent, ...(attachments ? { attachments } : {}) };
  }

  private async titleFromFirstMessage(sessionId: string, message: Content): Promise<void> {
    const meta = await this.deps.meta(sessionId);
    if (meta.title !== DEFAULT_TITLE) return;
    // A form's lines (or any message's) make a title of one line.
    await this.deps.store.putSessionMeta({
      ...meta,
      title: firstMessageTitle(message) || DEFAULT_TITLE,
    });
    this.deps.broadcast({ type: 'sessions-changed' });
  }
}

/** Why a run listed as interrupted stopped, from its record (see Runner and rewindToCheckpoint). */
function causeOf(
  run: InterruptedRun | InterruptedInvocation,
  record: RunRecord | undefined,
): RunCause {
  if (run.status === 'paused') return 'waiting';
  if (record?.ownerId === REWIND_OWNER) return 'rewound';
  if (run.error) return 'failed';
  return record?.status === 'running' ? 'cut-off' : 'stopped';
}

/** A turn's first event (its user's message); InvocationNotFoundError for an unknown turn. */
export async function turnFirstEvent(
  sessions: IndexedDbSessionService,
  sessionId: string,
  invocationId: string,
): Promise<Event | undefined> {
  const key = { appName: APP_NAME, userId: USER_ID, sessionId };
  const checkpoint = await sessions.getInvocationCheckpoint({ ...key, invocationId });
  if (!checkpoint) throw new InvocationNotFoundError(invocationId, sessionId);
  const page = await sessions.listEvents({ ...key, fromSeq: checkpoint.firstSeq, limit: 1 });
  return page?.entries[0]?.event;
}
