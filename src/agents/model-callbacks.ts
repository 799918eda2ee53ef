// An LlmAgent's model callbacks for one model call (see callbacks.ts and llm-call.ts): one
// context for the call, whose changes go into the actions of the call's answer event, as ADK's
// go into its model response event.

import type { EventActions } from '../core/event.ts';
import type { LlmRequest, LlmResponse } from '../models/llm.ts';
import type { InvocationContext } from '../runner/invocation-context.ts';
import { CallbackContext } from './callback-context.ts';
import { firstAnswer, type ModelCallbacks } from './callbacks.ts';
import { contentsOnRead } from './contents-on-read.ts';

type Maybe<T> = T | undefined | Promise<T | undefined>;

export class ModelCallHooks {
  private readonly context: CallbackContext;

  constructor(
    private readonly callbacks: ModelCallbacks,
    ctx: InvocationContext,
    /** The actions of the event the call's answer becomes. */
    actions: EventActions,
  ) {
    this.context = new CallbackContext(ctx, actions);
  }

  /**
   * What a before-model callback answered instead of the model, if any (`request` may change);
   * at once when the callbacks answered at once, as most do (see agent-callbacks.ts on why).
   */
  before(request: LlmRequest): Maybe<LlmResponse> {
    if (this.callbacks.before.length === 0) return undefined;
    // They may change the request, its contents too: each content they read is a copy of their
    // own (contents-on-read.ts), and the model gets the contents as they left them.
    const contents = contentsOnRead(request.contents);
    request.contents = contents.view;
    const settle = () => {
      request.contents = contents.settle(request.contents);
    };
    let answer: Maybe<LlmResponse>;
    try {
      answer = firstAnswer(this.callbacks.before, { context: this.context, request });
    } catch (error) {
      settle();
      throw error;
    }
    if (answer instanceof Promise) return answer.finally(settle);
    settle();
    return answer;
  }

  /** The response as the after-model callbacks leave it (at once when they answered at once). */
  after(response: LlmResponse): LlmResponse | Promise<LlmResponse> {
    if (this.callbacks.after.length === 0) return response;
    const answer = firstAnswer(this.callbacks.after, { context: this.context, response });
    return answer instanceof Promise
      ? answer.then((replaced) => replaced ?? response)
      : (answer ?? response);
  }

  /** What an error callback answers in place of the failed call, if any. */
  async onError(request: LlmRequest, error: Error): Promise<LlmResponse | undefined> {
    if (this.callbacks.onError.length === 0) return undefined;
    return firstAnswer(this.callbacks.onError, { context: this.context, request, error });
  }
}
