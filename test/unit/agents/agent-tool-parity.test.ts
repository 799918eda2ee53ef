// ADK's AgentTool on Trellis, side by side with @google/adk 2.0: the same caller and helper
// agents, the same scripted model logic, run on each library; what the caller's session holds at
// the end (texts, calls, responses, state deltas, the state) must be the same. Trellis also keeps
// the helper's own events, on a branch of their own (ADK keeps them in a session of its own):
// they are compared without it, and what the branch holds is asserted apart.
//
// ADK TS 2.0.0 is wrong in one place: its AgentTool takes `skipSummarization` but never sets
// `actions.skipSummarization` (ADK Python's run_async does; the option's documented meaning is
// "skip summarization of the agent output"). The ADK side here sets it as ADK Python does.

import * as adk from '@google/adk';
import { describe, expect, it } from 'vitest';
import * as trellis from '../../../src/index.ts';
import {
  held,
  lastUserText,
  sideBySide as compareSideBySide,
  text,
  type Held,
  type Lib,
  type Request,
  type Response,
  type Session,
} from '../../support/callback-parity.ts';

/** ADK's AgentTool, with skipSummarization doing what ADK documents (see the top). */
class DocumentedAdkAgentTool extends adk.AgentTool {
  private readonly skips: boolean;
  constructor(config: adk.AgentToolConfig) {
    super(config);
    this.skips = config.skipSummarization ?? false;
  }
  override runAsync(request: adk.RunAsyncToolRequest): Promise<unknown> {
    if (this.skips) request.toolContext.actions.skipSummarization = true;
    return super.runAsync(request);
  }
}

function agentTool(lib: Lib, agent: unknown, skipSummarization?: boolean): unknown {
  const config = { agent, ...(skipSummarization === undefined ? {} : { skipSummarization }) };
  return lib.name === 'adk'
    ? new DocumentedAdkAgentTool(config as never)
    : new trellis.AgentTool(config as never);
}

/** The caller's model: "ask X" calls `helper` with X; a response is reported back. */
const callerScript = (request: Request): Response => {
  const last = request.contents.at(-1);
  const response = last?.parts?.find((part) => part.functionResponse)?.functionResponse;
  if (response) return text(`${response.name} said ${JSON.stringify(response.response)}`);
  const asked = /ask (.*)/.exec(lastUserText(request))?.[1];
  if (!asked) return text(`heard: ${lastUserText(request)}`);
  return {
    content: {
      role: 'model',
      parts: [{ functionCall: { id: 'call-1', name: 'helper', args: { request: asked } } }],
    },
  };
};

/** The helper's model: "weather in X" calls get_weather; a response is reported; else echoed. */
const helperScript = (request: Request): Response => {
  const last = request.contents.at(-1);
  const response = last?.parts?.find((part) => part.functionResponse)?.functionResponse;
  if (response) return text(`it is ${(response.response as { sky?: string }).sky}`);
  const said = lastUserText(request);
  const city = /weather in (\w+)/.exec(said)?.[1];
  if (!city) return text(`${said}, done`);
  return {
    content: {
      role: 'model',
      parts: [{ functionCall: { id: 'call-2', name: 'get_weather', args: { city } } }],
    },
  };
};

function build(lib: Lib, options: { skipSummarization?: boolean; helper?: object } = {}) {
  const helper = new lib.LlmAgent({
    name: 'helper',
    description: 'Answers questions',
    model: lib.model(helperScript),
    tools: [
      lib.cityTool('get_weather', ({ city }) => {
        return { city, sky: 'sunny' };
      }),
    ],
    ...options.helper,
  });
  return new lib.LlmAgent({
    name: 'boss',
    model: lib.model(callerScript),
    tools: [agentTool(lib, helper, options.skipSummarization)],
  });
}

/** An event as both sessions hold it, with the branch it is on (Trellis's agent tool runs). */
type OnBranch = Held & { branch?: string };
const read = (event: { branch?: string }): OnBranch => ({
  ...held(event as never),
  ...(event.branch ? { branch: event.branch } : {}),
});

/** The caller's side of a session: its events off any branch, and the state. */
const callerOf = (session: Session): Session => ({
  events: session.events.filter((event: OnBranch) => !event.branch),
  state: session.state,
});

/**
 * Both libraries on the same messages: the callers' sessions must be equal; Trellis's returned,
 * split into the caller's side and the branch (ADK keeps the helper's events elsewhere).
 */
async function sideBySide(
  make: (lib: Lib) => unknown,
  messages: readonly string[],
  options: { streaming?: boolean } = {},
) {
  const ours = await compareSideBySide(make, messages, {
    ...options,
    read: read as never,
    compare: callerOf,
  });
  const branch = ours.events.filter((event: OnBranch) => event.branch);
  return {
    caller: callerOf(ours),
    branch: branch.map(({ branch: _, ...event }: OnBranch) => event),
  };
}

describe('AgentTool, side by side with @google/adk 2.0', () => {
  it('the helper’s answer is the call’s response, and the caller’s model reports it', async () => {
    const { caller, branch } = await sideBySide((lib) => build(lib), ['ask for a plan']);
    expect(caller.events).toEqual([
      { author: 'user', text: 'ask for a plan' },
      { author: 'boss', calls: ['helper({"request":"for a plan"})'] },
      { author: 'boss', responses: ['helper → {"result":"for a plan, done"}'] },
      { author: 'boss', text: 'helper said {"result":"for a plan, done"}' },
    ]);
    expect(branch).toEqual([
      { author: 'boss', text: 'for a plan' },
      { author: 'helper', text: 'for a plan, done' },
    ]);
  });

  it('a helper that calls a tool of its own: its last words are the answer', async () => {
    const { caller, branch } = await sideBySide((lib) => build(lib), ['ask weather in Oslo']);
    expect(caller.events.map((e) => e.responses ?? e.text ?? e.calls)).toEqual([
      'ask weather in Oslo',
      ['helper({"request":"weather in Oslo"})'],
      ['helper → {"result":"it is sunny"}'],
      'helper said {"result":"it is sunny"}',
    ]);
    expect(branch.map((e) => e.text ?? e.calls ?? e.responses)).toEqual([
      'weather in Oslo',
      ['get_weather({"city":"Oslo"})'],
      ['get_weather → {"city":"Oslo","sky":"sunny"}'],
      'it is sunny',
    ]);
  });

  it('streamed: what the sessions hold is the same (partial events are not stored)', async () => {
    const { caller, branch } = await sideBySide((lib) => build(lib), ['ask weather in Rome'], {
      streaming: true,
    });
    expect(caller.events.at(-1)).toEqual({
      author: 'boss',
      text: 'helper said {"result":"it is sunny"}',
    });
    expect(branch.at(-1)).toEqual({ author: 'helper', text: 'it is sunny' });
  });

  it('with skipSummarization, the caller’s turn ends with the response', async () => {
    const { caller } = await sideBySide(
      (lib) => build(lib, { skipSummarization: true }),
      ['ask for a plan', 'thanks'],
    );
    expect(caller.events).toEqual([
      { author: 'user', text: 'ask for a plan' },
      { author: 'boss', calls: ['helper({"request":"for a plan"})'] },
      { author: 'boss', responses: ['helper → {"result":"for a plan, done"}'] },
      { author: 'user', text: 'thanks' },
      { author: 'boss', text: 'heard: thanks' },
    ]);
  });

  it('without skipSummarization (false given), the caller’s model is called again', async () => {
    const { caller } = await sideBySide(
      (lib) => build(lib, { skipSummarization: false }),
      ['ask for a plan'],
    );
    expect(caller.events.at(-1)).toEqual({
      author: 'boss',
      text: 'helper said {"result":"for a plan, done"}',
    });
  });

  it('the state the helper writes comes back with the response (temp: keys do not)', async () => {
    const make = (lib: Lib) =>
      build(lib, {
        helper: {
          outputKey: 'helper_said',
          beforeModelCallback: ({
            context,
          }: {
            context: { state: { set: (k: string, v: unknown) => void } };
          }) => {
            context.state.set('helper_ran', true);
            context.state.set('temp:scratch', 'x');
            return undefined;
          },
        },
      });
    const { caller, branch } = await sideBySide(make, ['ask for a plan']);
    expect(caller.events[2]).toEqual({
      author: 'boss',
      responses: ['helper → {"result":"for a plan, done"}'],
      stateDelta: { helper_ran: true, helper_said: 'for a plan, done' },
    });
    expect(caller.state).toEqual({ helper_ran: true, helper_said: 'for a plan, done' });
    expect(branch[1]).toMatchObject({
      author: 'helper',
      stateDelta: { helper_ran: true, helper_said: 'for a plan, done' },
    });
  });
});
