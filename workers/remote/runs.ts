// The runs of sessions on ADK servers: a turn streamed from the server's /run_sse (the user's
// message shown at once, since the server does not stream it back), Stop, an answer to a call the
// server paused (a confirmation, a long-running tool), and a run whose stream broke kept for
// Resume.

import type { Content } from '../../src/core/content.ts';
import { InvalidRequestError } from '../../src/core/errors.ts';
import type { Event } from '../../src/core/event.ts';
import { newEventId } from '../../src/core/ids.ts';
import type { AdkClient } from '../../src/remote/client.ts';
import { PartialStream } from '../../src/remote/events.ts';
import { APP_NAME, USER_ID, userText } from '../sessions/sessions.ts';
import type { InterruptedRun } from '../protocol.ts';

/** A run the stream of which broke: offered for resume. */
interface CutOffRun {
  invocationId: string;
  message: Content;
  text: string;
  startedAt: number;
  error: { name: string; message: string };
}

/** Where a remote session lives: its app and id on a server, and the server's client. */
export interface RemoteTarget {
  tracked: { appName: string; sessionId: string };
  client: AdkClient;
}

export class RemoteRuns {
  private readonly controllers = new Map<string, AbortController>();
  private readonly cutOff = new Map<string, CutOffRun>();

  constructor(
    private readonly resolve: (id: string) => Promise<RemoteTarget>,
    /** Called when a run of the session ends, however it ends (and when a resume finds it done). */
    private readonly ended: (id: string) => Promise<void>,
  ) {}

  async send(id: string, text: string, onEvent: (event: Event) => void): Promise<void> {
    const message = userText(text);
    await this.run(id, message, text, onEvent);
  }

  /**
   * Answers a paused call on the server (its `adk_request_confirmation`, as adk-web does, a
   * long-running tool, a question) with the user's function response.
   */
  async respond(
    id: string,
    callId: string,
    name: string,
    response: Record<string, unknown>,
    onEvent: (event: Event) => void,
  ): Promise<void> {
    const message: Content = {
      role: 'user',
      parts: [{ functionResponse: { id: callId, name, response } }],
    };
    // ADK's run API resumes a paused (long-running) call with the event that made it and its
    // invocation (a resumable ADK Python app needs them); servers that take neither ignore them,
    // and one that refuses them (an app that is not resumable) gets the plain answer instead.
    const { tracked, client } = await this.resolve(id);
    const served = await client.getSession(tracked.appName, tracked.sessionId);
    const call = served.events.find((event) =>
      ((event.content as Content | undefined)?.parts ?? []).some(
        (part) => part.functionCall?.id === callId,
      ),
    );
    const resumes =
      call?.id && call.invocationId
        ? { functionCallEventId: call.id, invocationId: call.invocationId }
        : undefined;
    await this.run(id, message, '', onEvent, resumes);
  }

  stop(id: string): void {
    this.controllers.get(id)?.abort();
  }

  /**
   * Resumes a run whose stream broke. An ADK server keeps what it stored before the break; the
   * run itself can't be picked up where it was (ADK's API resumes only long-running calls), so
   * when the server has no answer to the cut-off message, the message is sent again.
   */
  async resume(id: string, invocationId: string, onEvent: (event: Event) => void): Promise<void> {
    const cut = this.cutOff.get(id);
    if (!cut || cut.invocationId !== invocationId)
      throw new InvalidRequestError('There is nothing to resume in this session');
    const { tracked, client } = await this.resolve(id);
    const served = await client.getSession(tracked.appName, tracked.sessionId);
    const answered = served.events.some(
      (event) =>
        event.invocationId === invocationId &&
        event.author !== 'user' &&
        !event.partial &&
        hasText(event),
    );
    if (answered) {
      this.cutOff.delete(id);
      await this.ended(id);
      return;
    }
    await this.run(id, cut.message, cut.text, onEvent);
  }

  /** Runs cut off by a broken stream (this worker's; another tab's are its own). */
  interruptedRuns(titles: ReadonlyMap<string, string>): InterruptedRun[] {
    return [...this.cutOff].map(([id, cut]) => ({
      appName: APP_NAME,
      userId: USER_ID,
      sessionId: id,
      invocationId: cut.invocationId,
      agentName: '',
      status: 'interrupted' as const,
      startedAt: cut.startedAt,
      updatedAt: cut.startedAt,
      error: cut.error,
      sessionTitle: titles.get(id) ?? 'ADK session',
      turnText: cut.text,
      cause: 'failed' as const,
    }));
  }

  private async run(
    id: string,
    message: Content,
    text: string,
    onEvent: (event: Event) => void,
    resumes?: { functionCallEventId: string; invocationId: string },
  ): Promise<void> {
    const { tracked, client } = await this.resolve(id);
    if (this.controllers.has(id)) throw new InvalidRequestError('This session is running already');
    const controller = new AbortController();
    this.controllers.set(id, controller);
    const stream = new PartialStream();
    const startedAt = Date.now();
    let invocationId = '';
    const request = { appName: tracked.appName, sessionId: tracked.sessionId, newMessage: message };
    const stream$ = async function* (): AsyncGenerator<Record<string, unknown>> {
      if (!resumes) return yield* client.runSse(request as never, controller.signal);
      let started = false;
      try {
        for await (const raw of client.runSse(
          { ...request, ...resumes } as never,
          controller.signal,
        )) {
          started = true;
          yield raw;
        }
      } catch (error) {
        // Refused before anything ran (a server whose app is not resumable): the plain answer.
        if (started || (error as Error).name !== 'AdkServerError') throw error;
        yield* client.runSse(request as never, controller.signal);
      }
    };
    try {
      for await (const raw of stream$()) {
        const event = stream.next(raw);
        if (!invocationId) {
          invocationId = event.invocationId;
          // The server stores the message but does not stream it back: the page is told here.
          onEvent({
            id: newEventId(),
            invocationId,
            author: 'user',
            timestamp: startedAt,
            content: message,
            actions: { stateDelta: {}, artifactDelta: {} },
          });
        }
        onEvent(event);
      }
      this.cutOff.delete(id);
    } catch (error) {
      if (!controller.signal.aborted && (error as Error).name !== 'AbortError') {
        const { name, message: said } = error as Error;
        this.cutOff.set(id, {
          invocationId: invocationId || `cut-${startedAt}`,
          message,
          text,
          startedAt,
          error: { name, message: said },
        });
      }
      throw error;
    } finally {
      this.controllers.delete(id);
      await this.ended(id);
    }
  }
}

function hasText(event: Record<string, unknown>): boolean {
  const content = event.content as Content | undefined;
  return !!content?.parts.some((part) => part.text);
}
