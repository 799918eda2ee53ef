// What an agent or model callback sees (ADK's `Context`, as far as Trellis has its pieces): the
// invocation, the state, and the actions of the event its changes go into. A tool callback sees
// the call's ToolContext (src/tools/tool-context.ts, which extends this), as the tool does.

import type { Content } from '../core/content.ts';
import { InvalidRequestError } from '../core/errors.ts';
import type { SearchMemoryResponse } from '../store/memory-service.ts';
import { createEventActions, type EventActions } from '../core/event.ts';
import { stateView, type StateView } from '../core/state.ts';
import type { InvocationContext } from '../runner/invocation-context.ts';

export class CallbackContext {
  /**
   * The actions of the event the changes go into: a model callback's are its answer event's, a
   * tool's (and its callbacks') its response event's, an agent callback's an event of their own
   * (see agent-callbacks.ts).
   */
  readonly actions: EventActions;
  /** The session state; what is set goes into `actions.stateDelta` (a rewind undoes it). */
  readonly state: StateView;

  constructor(
    readonly invocationContext: InvocationContext,
    actions: EventActions = createEventActions(),
  ) {
    this.actions = actions;
    this.state = stateView(() => invocationContext.session.state, actions.stateDelta);
  }

  get invocationId(): string {
    return this.invocationContext.invocationId;
  }

  get agentName(): string {
    return this.invocationContext.agent.name;
  }

  /** The user message that started the invocation. */
  get userContent(): Content | undefined {
    return this.invocationContext.userContent;
  }

  get userId(): string {
    return this.invocationContext.userId;
  }

  get sessionId(): string {
    return this.invocationContext.session.id;
  }

  /**
   * The user's memories that match `query`, from the runner's memory service (ADK's; a tool's
   * context has it too, as ToolContext extends this). InvalidRequestError without one.
   */
  searchMemory(query: string): Promise<SearchMemoryResponse> {
    const service = this.invocationContext.memoryService;
    if (!service) throw new InvalidRequestError('This runner has no memory service');
    const { appName, userId } = this.invocationContext.session;
    return service.searchMemory({ appName, userId, query });
  }
}
