// What a tool sees while it runs: the invocation's state, the actions of its response event, and
// the artifacts of the session.

import { CallbackContext } from '../agents/callback-context.ts';
import type { Part } from '../core/content.ts';
import { InvalidRequestError } from '../core/errors.ts';
import type { EventActions, ToolConfirmation } from '../core/event.ts';
import { setOwn, type StateView } from '../core/state.ts';
import type { InvocationContext } from '../runner/invocation-context.ts';

/** State as a tool sees it (see StateView): its writes go into its response event's delta. */
export type ToolState = StateView;

/**
 * A callback's context (state, `actions`: those of the tool's response event, where `escalate`,
 * `skipSummarization`, `transferToAgent`… go) with the call's own: its id, its confirmation, the
 * session's artifacts. ADK Python's ToolContext extends its CallbackContext alike; the tool
 * callbacks get the tool's.
 */
export class ToolContext extends CallbackContext {
  /** File name → how many times this call saved it so far. */
  private readonly saves = new Map<string, number>();

  constructor(
    invocationContext: InvocationContext,
    /** The id of the function call being answered. */
    readonly functionCallId: string,
    actions: EventActions,
    /** The human's answer, when this call was paused for confirmation and then answered. */
    readonly toolConfirmation?: ToolConfirmation,
  ) {
    super(invocationContext, actions);
  }

  /**
   * Asks a human to approve this call: the invocation pauses once the tool returns, and when the
   * human answers, the tool runs again with `toolConfirmation` set (approved or not, with their
   * optional payload).
   */
  requestConfirmation({ hint, payload }: { hint?: string; payload?: unknown } = {}): void {
    this.actions.requestedToolConfirmations = {
      ...this.actions.requestedToolConfirmations,
      [this.functionCallId]: {
        confirmed: false,
        ...(hint !== undefined ? { hint } : {}),
        ...(payload !== undefined ? { payload } : {}),
      },
    };
  }

  /**
   * Saves a new version of an artifact and records it in this response's `artifactDelta`. A call
   * run again (its run resumed after a crash that came before its answer was stored) gets back
   * the version its first run saved instead of saving another: each save of a call is named by
   * the call and how many saves of that file the call made before it.
   */
  async saveArtifact(filename: string, artifact: Part): Promise<number> {
    const nth = (this.saves.get(filename) ?? 0) + 1;
    this.saves.set(filename, nth);
    const version = await this.artifactService().saveArtifact({
      ...this.artifactScope(),
      filename,
      artifact,
      savedBy: JSON.stringify([this.invocationId, this.functionCallId, nth]),
    });
    setOwn(this.actions.artifactDelta, filename, version);
    return version;
  }

  /** An artifact of the session (or the user, for `user:` names); the latest version by default. */
  loadArtifact(filename: string, version?: number): Promise<Part | undefined> {
    return this.artifactService().loadArtifact({
      ...this.artifactScope(),
      filename,
      ...(version === undefined ? {} : { version }),
    });
  }

  listArtifacts(): Promise<string[]> {
    return this.artifactService().listArtifactKeys(this.artifactScope());
  }

  private artifactScope() {
    const { appName, userId, id: sessionId } = this.invocationContext.session;
    return { appName, userId, sessionId };
  }

  private artifactService() {
    const service = this.invocationContext.artifactService;
    if (!service) throw new InvalidRequestError('This runner has no artifact service');
    return service;
  }
}
