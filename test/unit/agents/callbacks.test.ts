// ADK's agent callbacks on Trellis's own ground: the error callbacks ADK TS 2.0 lacks on an
// LlmAgent (tested against ADK Python's documented behaviour), streaming, and an agent without
// any. Rewind, resume and checkpoints are in callbacks-resume.test.ts; the side-by-side runs
// with @google/adk in callbacks-parity*.test.ts.

import { describe, expect, it } from 'vitest';
import {
  FunctionTool,
  LlmAgent,
  ModelError,
  ScriptedModel,
  textResponse,
  type Event,
} from '../../../src/index.ts';
import { callingModel, openInMemory as open, said } from '../../support/callback-agents.ts';
import { describeEvents } from '../../support/describe-events.ts';

// ADK Python's LlmAgent has on_model_error_callback and on_tool_error_callback (ADK TS 2.0 has
// them on plugins only, and there yields an error event instead of raising when none answers):
// an answer stands in for the failed call, the after callbacks see it; with none, the error
// goes on. These tests pin that documented behaviour.
describe('onModelErrorCallback (ADK Python’s, on LlmAgent)', () => {
  const failing = () =>
    new ScriptedModel(() => {
      throw new Error('503 overloaded');
    });

  it('answers in place of a failed model call, and the after callbacks see that answer', async () => {
    const seen: string[] = [];
    const agent = new LlmAgent({
      name: 'helper',
      model: failing(),
      onModelErrorCallback: ({ context, error }) => {
        seen.push(`${error.name}: ${error.message}`);
        context.state.set('fallback', true);
        return textResponse('The model is busy; try again shortly.');
      },
      afterModelCallback: ({ response }) => ({
        content: said(`${response.content!.parts[0]!.text} (fallback)`),
      }),
    });
    const { run, read } = await open(agent);
    const events = await run('hi');
    expect(seen).toEqual(['ModelError: Model scripted failed: 503 overloaded']);
    expect(describeEvents(events)).toEqual([
      'helper: "The model is busy; try again shortly. (fallback)"',
    ]);
    expect(events[0]!.actions.stateDelta).toEqual({ fallback: true });
    // Not the model's answer: no model named, no timing.
    expect(events[0]!.modelVersion).toBeUndefined();
    expect((await read()).state).toEqual({ fallback: true });
  });

  it('lets the error go on when no callback answers', async () => {
    const agent = new LlmAgent({
      name: 'helper',
      model: failing(),
      onModelErrorCallback: [() => undefined, () => undefined],
    });
    const { stream } = await open(agent);
    const events: Event[] = [];
    await expect(async () => {
      for await (const event of stream('hi')) events.push(event);
    }).rejects.toThrow(ModelError);
    expect(describeEvents(events)).toEqual(['helper: error MODEL_ERROR']);
  });

  it('is not called when the run is stopped', async () => {
    const controller = new AbortController();
    let called = false;
    const agent = new LlmAgent({
      name: 'helper',
      model: new ScriptedModel(() => {
        controller.abort();
        throw new DOMException('stopped', 'AbortError');
      }),
      onModelErrorCallback: () => {
        called = true;
        return textResponse('no');
      },
    });
    const { run } = await open(agent);
    // Stop ends the run quietly: nothing stands in for the call, nothing is stored after it.
    expect(await run('hi', { signal: controller.signal })).toEqual([]);
    expect(called).toBe(false);
  });
});

describe('onToolErrorCallback (ADK Python’s, on LlmAgent)', () => {
  const flaky = (ran: string[] = []) =>
    new FunctionTool({
      name: 'lookup',
      description: 'Looks up',
      execute: () => {
        ran.push('lookup');
        throw new Error('index offline');
      },
    });

  it('gives the call’s result in place of the tool’s error; the after callbacks see it', async () => {
    const errors: string[] = [];
    const agent = new LlmAgent({
      name: 'helper',
      model: callingModel('lookup'),
      tools: [flaky()],
      onToolErrorCallback: ({ tool, error, context }) => {
        errors.push(`${tool.name} ${error.name} ${(error.cause as Error).message}`);
        context.state.set('degraded', true);
        return { answer: 'unknown for now' };
      },
      afterToolCallback: ({ response }) => ({ ...response, checked: true }),
    });
    const { run, read } = await open(agent);
    const events = await run('look it up');
    expect(errors).toEqual(['lookup ToolError index offline']);
    expect(describeEvents(events)).toEqual([
      'helper: call lookup',
      'helper: response lookup',
      'helper: "result: {\\"answer\\":\\"unknown for now\\",\\"checked\\":true}"',
    ]);
    expect(events[1]!.actions.stateDelta).toEqual({ degraded: true });
    expect((await read()).state).toEqual({ degraded: true });
  });

  it('lets the error go on when no callback answers: the call is answered with it, the run fails', async () => {
    let after = false;
    const agent = new LlmAgent({
      name: 'helper',
      model: callingModel('lookup'),
      tools: [flaky()],
      onToolErrorCallback: () => undefined,
      afterToolCallback: () => {
        after = true;
        return undefined;
      },
    });
    const { stream } = await open(agent);
    const events: Event[] = [];
    await expect(async () => {
      for await (const event of stream('look it up')) events.push(event);
    }).rejects.toThrow(/index offline/);
    expect(describeEvents(events)).toEqual([
      'helper: call lookup',
      'helper: response lookup',
      'helper: error TOOL_ERROR',
    ]);
    expect(after).toBe(false);
  });
});

describe('afterModelCallback on a streamed answer', () => {
  it('sees each chunk (partial) and the final response; the stored answer is the final’s', async () => {
    const seen: string[] = [];
    const agent = new LlmAgent({
      name: 'writer',
      model: new ScriptedModel([
        [
          { content: said('Hel'), partial: true },
          { content: said('lo'), partial: true },
          { content: said('Hello') },
        ],
      ]),
      afterModelCallback: ({ response }) => {
        const text = response.content!.parts[0]!.text!;
        seen.push(`${response.partial ? 'chunk' : 'final'} ${text}`);
        return { ...response, content: said(text.toUpperCase()) };
      },
    });
    const { run, read } = await open(agent);
    const events = await run('hi', { streamingMode: 'sse' });
    expect(seen).toEqual(['chunk Hel', 'chunk lo', 'final Hello']);
    expect(describeEvents(events)).toEqual([
      'writer: "HEL" (partial)',
      'writer: "LO" (partial)',
      'writer: "HELLO"',
    ]);
    expect((await read()).events.at(-1)!.content).toEqual(said('HELLO'));
  });
});

describe('an agent without callbacks', () => {
  it('carries none: nothing to run on its hot path', () => {
    const agent = new LlmAgent({ name: 'plain', model: new ScriptedModel(['hi']) });
    expect(agent.modelCallbacks).toBeUndefined();
    expect(agent.toolCallbacks).toBeUndefined();
    expect(agent.beforeAgentCallback).toEqual([]);
    expect(agent.afterAgentCallback).toEqual([]);
  });

  it('keeps one callback or a list as ADK’s canonical list', () => {
    const one = () => undefined;
    const agent = new LlmAgent({
      name: 'listed',
      model: new ScriptedModel(['hi']),
      beforeAgentCallback: one,
      afterAgentCallback: [one, one],
      afterToolCallback: one,
    });
    expect(agent.beforeAgentCallback).toEqual([one]);
    expect(agent.afterAgentCallback).toEqual([one, one]);
    expect(agent.modelCallbacks).toBeUndefined();
    expect(agent.toolCallbacks).toEqual({ before: [], after: [one], onError: [] });
  });
});
