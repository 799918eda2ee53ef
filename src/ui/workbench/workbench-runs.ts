// The workbench's view model, its second layer: runs of the open session. Whatever starts one
// (a message, an answer, a resume, an edit) streams its events here: partial events feed the live
// text (drawn once a frame), stored ones extend the opening's tail and state as they come, and the
// opening is read again when the run ends.

import { CONTINUE_MESSAGE, isLengthCut } from '../chat/turn-run-model.ts';
import { modelWaitOf } from '../../core/model-wait.ts';
import { withEventUsage } from '../../core/usage.ts';
import { showsError } from '../chat/chat-model.ts';
import type { Event } from '../../core/event.ts';
import type { InterruptedRun, OutgoingAttachment } from '../../../workers/protocol.ts';
import type { InputRequest } from '../chat/input-requests-model.ts';
import type { FormValues } from '../chat/start-form-model.ts';
import { sessionView } from './session-view.ts';
import { WorkbenchOpening } from './workbench-opening.ts';
import { withStoredEvent, type Streaming } from './workbench-state.ts';

/** Rounds of rejections before a message is sent while approvals are waiting. */
const REJECT_ROUNDS = 3;

export abstract class WorkbenchRuns extends WorkbenchOpening {
  /** The user pressed Stop during the run under way. */
  private stopped = false;
  /** Streamed text not drawn yet, and the frame that will draw it. */
  private pendingStream: Streaming | undefined;
  private streamFrame: (() => void) | undefined;
  /** When streamed text was last drawn (performance.now()). */
  private streamDrawnAt = Number.NEGATIVE_INFINITY;

  /** `form`: a flow's start form's values, `text` their lines (chat/start-form-model.ts). */
  async send(
    text: string,
    attachments: OutgoingAttachment[] = [],
    form?: FormValues,
  ): Promise<void> {
    const sessionId = this.state.current?.summary.id;
    if (!sessionId || (!text.trim() && attachments.length === 0)) return;
    // A question the agent asked (ask_user) takes the next message as its reply, as ADK takes
    // a plain-text reply to its own question.
    const question = this.waitingQuestion();
    if (question && attachments.length === 0 && !form)
      return this.respond(question.callId, question.name, { result: text });
    this.set({ sent: sentText(text, attachments) });
    const { failed, stored } = await this.running(sessionId, (onEvent) =>
      this.client.runtime.send(sessionId, text, onEvent, attachments, form && { ...form }),
    );
    // Refused before it was stored (another tab took the session first, the keys are locked…):
    // the message goes back to the box (a form keeps its values), and the error says it was not
    // sent.
    if (failed && !stored.some((event) => event.author === 'user')) {
      const error = this.state.error;
      const said = form
        ? 'The form was not sent.'
        : 'Your message was not sent: it is back in the box.';
      this.set({
        ...(form ? {} : { returned: { text, attachments } }),
        ...(error ? { error: `${error} ${said}` } : {}),
      });
    }
  }

  /**
   * Rejects the approvals the session waits for (each run goes on, told the user declined),
   * then sends the message: what the composer does when the user sends while one waits.
   */
  async rejectAndSend(text: string, attachments: OutgoingAttachment[] = []): Promise<void> {
    // An agent told no may ask again (a flow's retry): a few rounds, then the user decides.
    for (let round = 0; round < REJECT_ROUNDS; round++) {
      const current = this.state.current;
      if (!current) return;
      const waiting = sessionView(current).approvals;
      if (waiting.length === 0) return this.send(text, attachments);
      for (const approval of waiting) {
        await this.answer(approval.requestId, false);
        if (this.state.error) return;
      }
    }
    const current = this.state.current;
    if (current && sessionView(current).approvals.length === 0) return this.send(text, attachments);
    // Nothing the user typed is lost: the message goes back to the composer.
    this.set({
      returned: { text, attachments },
      notice: 'The agent asked for approval again: answer it, then send your message.',
    });
  }

  stop(): void {
    const sessionId = this.state.current?.summary.id;
    if (!sessionId) return;
    this.stopped = true;
    void this.client.runtime.stop(sessionId);
  }

  async edit(invocationId: string, text: string): Promise<void> {
    const sessionId = this.state.current?.summary.id;
    if (!sessionId) return;
    this.set({ selectedTurnId: undefined, sent: text.trim() });
    await this.running(sessionId, (onEvent) =>
      this.client.runtime.edit(sessionId, invocationId, text, onEvent),
    );
  }

  /** Asks the turn's message again; the old answer stays as a branch. */
  async regenerate(invocationId: string): Promise<void> {
    const sessionId = this.state.current?.summary.id;
    if (!sessionId) return;
    this.set({ selectedTurnId: undefined });
    await this.running(sessionId, (onEvent) =>
      this.client.runtime.regenerate(sessionId, invocationId, onEvent),
    );
  }

  /** Rewinds to before the turn, saves the state edit, and asks the turn's message again. */
  async editStateAndRerun(
    invocationId: string,
    changes: Readonly<Record<string, unknown>>,
  ): Promise<void> {
    const sessionId = this.state.current?.summary.id;
    if (!sessionId) return;
    this.set({ selectedTurnId: undefined });
    await this.running(sessionId, (onEvent) =>
      this.client.runtime.editStateAndRerun(sessionId, invocationId, { ...changes }, onEvent),
    );
  }

  /**
   * Carries on the open session's last turn (the chat's Continue, Retry or Resume): resumes its
   * invocation, listed as interrupted or not (see turn-run-model.ts).
   */
  async resumeTurn(invocationId: string): Promise<void> {
    const sessionId = this.state.current?.summary.id;
    if (!sessionId) return;
    // An answer cut at the max output tokens finished its turn: the model goes on in a new one.
    const last = this.state.current?.activeTail.findLast(({ event }) => event.content)?.event;
    if (last?.invocationId === invocationId && isLengthCut(last))
      return this.send(CONTINUE_MESSAGE);
    await this.running(sessionId, (onEvent) =>
      this.client.runtime.resume(sessionId, invocationId, onEvent),
    );
  }

  /** Hides these runs from the banner (the chat's last turn keeps its own action). */
  dismissRuns(invocationIds: readonly string[]): void {
    this.set({ dismissedRuns: new Set([...this.state.dismissedRuns, ...invocationIds]) });
  }

  async resume(run: InterruptedRun): Promise<void> {
    if (this.state.current?.summary.id !== run.sessionId) await this.open(run.sessionId);
    await this.running(run.sessionId, (onEvent) =>
      this.client.runtime.resume(run.sessionId, run.invocationId, onEvent),
    );
  }

  async answer(requestId: string, confirmed: boolean, payload?: unknown): Promise<void> {
    const sessionId = this.state.current?.summary.id;
    if (!sessionId) return;
    this.set({ answered: [...this.state.answered, requestId] });
    await this.running(sessionId, (onEvent) =>
      this.client.runtime.answer(sessionId, requestId, confirmed, payload, onEvent),
    );
  }

  /** Approves a call, and lets its tool run without asking from now on (policy: always). */
  async allowAlways(requestId: string, toolName: string): Promise<void> {
    const set = await this.guard(async () => {
      await this.client.runtime.setToolPolicy(toolName, 'always');
      return true;
    });
    if (set) await this.answer(requestId, true);
  }

  /**
   * Replies to a paused call (a question, a long-running tool) with its function response: the
   * run that waits for it goes on.
   */
  async respond(callId: string, name: string, response: Record<string, unknown>): Promise<void> {
    const sessionId = this.state.current?.summary.id;
    if (!sessionId) return;
    this.set({ answered: [...this.state.answered, callId] });
    await this.running(sessionId, (onEvent) =>
      this.client.runtime.respond(sessionId, callId, name, response, onEvent),
    );
  }

  /** The question the open session waits on, unless an approval comes first. */
  waitingQuestion(): InputRequest | undefined {
    const current = this.state.current;
    if (!current) return undefined;
    const view = sessionView(current);
    if (view.approvals.some((approval) => !this.state.answered.includes(approval.requestId)))
      return undefined;
    return view.inputs.find(
      (input) => input.kind === 'question' && !this.state.answered.includes(input.callId),
    );
  }

  /** Runs that can be resumed without an answer from the user (cut off, or stopped). */
  protected async resumeAll(): Promise<void> {
    for (const run of this.state.interrupted.filter((item) => item.status === 'interrupted'))
      await this.resume(run);
  }

  /**
   * Runs something that streams events of the current session: partial events feed the live
   * text, stored ones join the log (and update the state) as they come. A failure the run logged
   * as an error event is shown there, in the chat, not a second time in the error banner.
   */
  /** Runs a run of the session; says whether it failed, and the events it stored. */
  protected async running(
    sessionId: string,
    start: (onEvent: (event: Event) => void) => Promise<void>,
  ): Promise<{ failed: boolean; stored: readonly Event[] }> {
    this.set({
      running: true,
      runEventIds: new Set(),
      error: undefined,
      notice: undefined,
      rewind: undefined,
      stoppedText: undefined,
      returned: undefined,
    });
    this.stopped = false;
    const logged: Event[] = [];
    // The run's events come on a port of their own, its end on another, and two ports keep no
    // order between them: an event that arrives after the end is dropped (a late partial would
    // draw a stream nobody ends; a stored one is in the reload below).
    let ended = false;
    const failure = await start(
      this.client.callback((event) => {
        if (ended) return;
        if (!event.partial) logged.push(event);
        this.onEvent(sessionId, event);
      }),
    ).then(
      () => undefined,
      (error: unknown) => error ?? new Error('The run failed'),
    );
    ended = true;
    this.flushStream();
    const cut = this.stopped ? this.state.streaming : undefined;
    this.set({ running: false, streaming: undefined, waiting: undefined });
    if (this.state.current?.summary.id === sessionId) await this.reload();
    // A stopped answer is stored (core/cut-answer.ts) and now in the log; one an ADK server did
    // not keep stays shown, marked as not saved.
    if (cut && !this.state.current?.activeTail.some(({ event }) => event.id === cut.eventId))
      this.set({ stoppedText: cut });
    // Stop cancels the run: its AbortError is no failure. Any other AbortError (a tool's own
    // request, a store that gave up) is one, and is shown.
    const cancelled = this.stopped && (failure as Error | undefined)?.name === 'AbortError';
    // The error event may come after the run's end (another port), so the log read again says.
    const stored = this.state.current?.activeTail.map(({ event }) => event) ?? [];
    const message = (failure as Error | undefined)?.message;
    if (
      failure !== undefined &&
      !cancelled &&
      !showsError(logged, message) &&
      !showsError(stored, message)
    )
      this.fail(failure);
    this.set({ sent: undefined, answered: [], runEventIds: new Set() });
    await Promise.all([this.refreshSessions(), this.refreshInterrupted()]);
    return { failed: failure !== undefined && !cancelled, stored: logged };
  }

  private onEvent(sessionId: string, event: Event): void {
    const current = this.state.current;
    if (current?.summary.id !== sessionId) return;
    const wait = modelWaitOf(event);
    if (wait) {
      this.flushStream();
      this.set({ waiting: wait });
      return;
    }
    if (this.state.waiting) this.set({ waiting: undefined });
    if (event.partial) {
      const previous = this.pendingStream ?? this.state.streaming;
      const text =
        (previous?.eventId === event.id ? previous.text : '') +
        (event.content?.parts[0]?.text ?? '');
      // Drawn at most once a frame, however fast chunks come: a fast model (or a long answer at the
      // demos' instant pace) sends hundreds a second, and each drawing costs the whole chat. But
      // drawn at once when none was drawn in the last frames: an answer's first words (waiting
      // would add to the time to its first token), and the worker's batches of a run it streams
      // (see workers/runs/partial-batches.ts), which come ten times a second. Drawn inside a
      // frame's callback, a change would be scrolled into view (stick-to-bottom.ts) only in the
      // frame after: two frames drawn per change instead of one.
      this.pendingStream = { eventId: event.id, author: event.author, text };
      if (previous?.eventId !== event.id || performance.now() - this.streamDrawnAt > QUIET_MS)
        this.flushStream();
      else this.streamFrame ??= nextFrame(() => this.flushStream());
      return;
    }
    this.flushStream();
    this.set({
      current: withStoredEvent(current, event),
      usage: this.state.usage && withEventUsage(this.state.usage, event),
      runEventIds: new Set([...this.state.runEventIds, event.id]),
      // The answer a stream was drawing is stored: by the same id (Trellis's models), or as the
      // author's next complete event (an ADK server's stream gives each chunk an id of its own).
      streaming:
        this.state.streaming?.eventId === event.id || this.state.streaming?.author === event.author
          ? undefined
          : this.state.streaming,
      // The user's message, stored: it joins the log, and is no longer shown as not saved yet.
      ...(event.author === 'user' ? { sent: undefined } : {}),
    });
  }

  /** Draws the streamed text that came since the last frame. */
  private flushStream(): void {
    this.streamFrame?.();
    this.streamFrame = undefined;
    const pending = this.pendingStream;
    if (!pending) return;
    this.pendingStream = undefined;
    this.streamDrawnAt = performance.now();
    this.set({ streaming: pending });
  }
}

/** Streamed text that comes after this long without a drawing is drawn at once: two frames. */
const QUIET_MS = 33;

/** The message as shown until the log has it: its text, and the names of its files. */
function sentText(text: string, attachments: readonly OutgoingAttachment[]): string {
  const files = attachments.map((file) => `📎 ${file.name}`).join('\n');
  return [text.trim(), files].filter(Boolean).join('\n');
}

/** Runs `draw` at the next frame (a timer where there are no frames); returns its cancel. */
function nextFrame(draw: () => void): () => void {
  if (typeof requestAnimationFrame === 'function') {
    const frame = requestAnimationFrame(draw);
    return () => cancelAnimationFrame(frame);
  }
  const timer = setTimeout(draw, 16);
  return () => clearTimeout(timer);
}
