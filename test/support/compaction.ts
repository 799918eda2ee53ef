// Agents that compact their context, on a runner over real services, for the tests of
// src/context: a chatty scripted model (long answers, a tool when asked), a scripted summariser
// that says what it summarised, and the contents each request held, in words.

import { afterEach } from 'vitest';
import {
  LlmAgent,
  LlmSummarizer,
  ScriptedModel,
  FunctionTool,
  functionCallResponse,
  textResponse,
  type BaseContextCompactor,
  type BaseLlm,
  type Content,
  type LlmRequest,
  type LlmResponse,
} from '../../src/index.ts';
import type { ServiceKind, Services } from './service-kinds.ts';

/** A request's contents in words: `user: hi`, `model: get_weather({"city":"Oslo"})`. */
export function lines(contents: readonly Content[]): string[] {
  return contents.map(
    (content) =>
      `${content.role}: ${content.parts
        .map((part) =>
          part.functionCall
            ? `${part.functionCall.name}(${JSON.stringify(part.functionCall.args ?? {})})`
            : part.functionResponse
              ? `${part.functionResponse.name} → ${JSON.stringify(part.functionResponse.response)}`
              : (part.text ?? ''),
        )
        .join(' | ')}`,
  );
}

/** The text of the last user content that is no function response. */
function lastUserText(request: LlmRequest): string {
  const last = request.contents.findLast(
    (content) => content.role === 'user' && content.parts.some((part) => part.text),
  );
  return last?.parts.map((part) => part.text ?? '').join('') ?? '';
}

/** Echoes at length; "weather in X" calls get_weather; a tool's answer is reported. */
export function chatModel(padding = 3): ScriptedModel {
  return new ScriptedModel((request): LlmResponse => {
    const response = request.contents.at(-1)?.parts.find((part) => part.functionResponse);
    if (response?.functionResponse)
      return textResponse(`tool says ${JSON.stringify(response.functionResponse.response)}`);
    const said = lastUserText(request);
    const city = /weather in (\w+)/.exec(said)?.[1];
    if (city) return functionCallResponse(['get_weather', { city }]);
    return textResponse(`heard: ${said}. ${'A long answer to fill the context. '.repeat(padding)}`);
  });
}

/** A summariser whose model says which summary it is and how many events it was given. */
export function countingSummarizer(): { summarizer: LlmSummarizer; model: ScriptedModel } {
  const model = new ScriptedModel((request, index) => {
    const prompt = request.contents[0]!.parts[0]!.text ?? '';
    const count = prompt.match(/\[Event \d+ - Author/g)?.length ?? 0;
    return `summary #${index + 1} of ${count} events`;
  });
  return { summarizer: new LlmSummarizer({ llm: model }), model };
}

export const weatherTool = new FunctionTool({
  name: 'get_weather',
  description: 'The weather in a city',
  parameters: { type: 'object', properties: { city: { type: 'string' } } },
  execute: ({ city }: { city: string }) => ({ city, sky: 'sunny' }),
});

export function compactingAgent(
  compactors: readonly BaseContextCompactor[],
  model: BaseLlm = chatModel(),
  tools: LlmAgent['tools'] = [weatherTool],
): LlmAgent {
  return new LlmAgent({ name: 'chatter', model, tools, contextCompactors: compactors });
}

/** Opens services of `kind` for a test, and closes them (and any it is given) after each. */
export function servicesPerTest(kind: ServiceKind): {
  open(): Services;
  keep(services: Services): Services;
} {
  let opened: Services[] = [];
  afterEach(async () => {
    await Promise.all(opened.map((services) => services.close()));
    opened = [];
  });
  const keep = (services: Services) => {
    opened.push(services);
    return services;
  };
  return { open: () => keep(kind.open()), keep };
}
