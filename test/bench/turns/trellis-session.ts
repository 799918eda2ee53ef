// Trellis: an LlmAgent with a FunctionTool, on InMemoryRunner or on a Runner over IndexedDB.

import {
  FunctionTool,
  IndexedDbArtifactService,
  IndexedDbSessionService,
  InMemoryRunner,
  LlmAgent,
  Runner,
  ScriptedModel,
  functionCallResponse,
  textOf,
  textResponse,
  type BasePlugin,
  type LlmRequest,
} from '../../../src/index.ts';
import {
  FINAL_ANSWER,
  TOOL_ARGS,
  TOOL_DESCRIPTION,
  TOOL_NAME,
  add,
  userMessage,
  type Contender,
  type TurnSession,
} from './turn-shape.ts';

const userId = 'bench';

function agent() {
  // Calls the tool when the last content is the user's message, answers once it has the result.
  const model = new ScriptedModel((request: LlmRequest) =>
    answeredTool(request)
      ? textResponse(FINAL_ANSWER)
      : functionCallResponse([TOOL_NAME, TOOL_ARGS]),
  );
  const tool = new FunctionTool({
    name: TOOL_NAME,
    description: TOOL_DESCRIPTION,
    parameters: {
      type: 'object',
      properties: { a: { type: 'number' }, b: { type: 'number' } },
      required: ['a', 'b'],
    },
    execute: add,
  });
  return { model, agent: new LlmAgent({ name: 'calc', model, tools: [tool] }) };
}

function answeredTool(request: LlmRequest): boolean {
  return request.contents.at(-1)?.parts.some((part) => 'functionResponse' in part) ?? false;
}

async function openOn(runner: Runner, model: ScriptedModel): Promise<TurnSession> {
  const session = await runner.sessionService.createSession({ appName: runner.appName, userId });
  return {
    async turn(turn) {
      let answer = '';
      for await (const event of runner.runAsync({
        userId,
        sessionId: session.id,
        newMessage: { role: 'user', parts: [{ text: userMessage(turn) }] },
      }))
        answer = textOf(event.content) || answer;
      // ScriptedModel keeps every request for tests to inspect; the other frameworks' models
      // keep nothing, so drop them to measure the framework rather than a test double's memory.
      model.requests.length = 0;
      return answer;
    },
  };
}

export const trellisInMemory: Contender = {
  name: 'Trellis InMemoryRunner',
  open() {
    const { model, agent: root } = agent();
    return openOn(new InMemoryRunner({ agent: root, appName: 'bench' }), model);
  },
};

/** InMemoryRunner with these plugins (a fresh set for each session). */
export function trellisWithPlugins(name: string, plugins: () => BasePlugin[]): Contender {
  return {
    name,
    open() {
      const { model, agent: root } = agent();
      return openOn(
        new InMemoryRunner({ agent: root, appName: 'bench', plugins: plugins() }),
        model,
      );
    },
  };
}

let databases = 0;

/** Needs `fake-indexeddb/auto` (or a real IndexedDB) loaded first. */
export const trellisIndexedDb: Contender = onIndexedDb('Trellis IndexedDB (fake-indexeddb)');

/** The IndexedDB runner with `plugins()` (new ones for each session). */
export function onIndexedDb(name: string, plugins: () => BasePlugin[] = () => []): Contender {
  return {
    name,
    open() {
      const { model, agent: root } = agent();
      const dbName = `bench-turns-${databases++}`;
      const runner = new Runner({
        appName: 'bench',
        agent: root,
        sessionService: new IndexedDbSessionService({ dbName }),
        artifactService: new IndexedDbArtifactService({ dbName }),
        plugins: plugins(),
      });
      return openOn(runner, model);
    },
  };
}
