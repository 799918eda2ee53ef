// OpenAiCompatibleModel against the local model server over real HTTP: what it sends, streamed
// text and tool-call deltas, tool results, usage, JSON mode, the model list, and a whole run.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  FunctionTool,
  InMemoryRunner,
  LlmAgent,
  OpenAiCompatibleModel,
  bytesToBase64,
  createUserContent,
  type Content,
  type LlmRequest,
} from '../../../src/index.ts';
import { collect, rejectionOf } from '../../support/helpers.ts';
import { startModelServer, type ModelServer } from '../../support/model-server.ts';

let server: ModelServer;
beforeAll(async () => (server = await startModelServer()));
afterAll(() => server.close());

function openai(model: string, apiKey?: string): OpenAiCompatibleModel {
  return new OpenAiCompatibleModel({
    model,
    baseUrl: `${server.url}/v1/`,
    retryBaseMs: 1,
    ...(apiKey ? { apiKey } : {}),
  });
}

function ask(text: string, extra: Partial<LlmRequest> = {}): LlmRequest {
  return { contents: [createUserContent(text)], ...extra };
}

function lastRequest() {
  return server.requests.at(-1)!;
}

const weatherTool = {
  name: 'get_weather',
  description: 'The weather in a city now',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};

describe('OpenAiCompatibleModel', () => {
  it('streams each delta as a partial, then the whole answer with its usage', async () => {
    const responses = await collect(
      openai('fixture-text').generateContentAsync(ask('Why is the sky blue?'), true),
    );
    expect(responses.filter((r) => r.partial).map((r) => r.content?.parts[0]?.text)).toEqual([
      'The sky',
      ' is blue',
      ' because air scatters',
      ' blue light most.',
    ]);
    expect(responses.at(-1)).toEqual({
      content: {
        role: 'model',
        parts: [{ text: 'The sky is blue because air scatters blue light most.' }],
      },
      usageMetadata: { promptTokenCount: 21, candidatesTokenCount: 12, totalTokenCount: 33 },
      modelVersion: 'gpt-4o-mini-2024-07-18',
    });
    const request = lastRequest();
    expect(request.path).toBe('/v1/chat/completions');
    expect(request.body).toEqual({
      model: 'fixture-text',
      messages: [{ role: 'user', content: 'Why is the sky blue?' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    expect(request.headers.authorization).toBeUndefined(); // local servers need no key
  });

  it('answers in one response without streaming, and sends the key as a Bearer token', async () => {
    const responses = await collect(
      openai('fixture-text', 'sk-test-123').generateContentAsync(ask('Hi')),
    );
    expect(responses).toEqual([
      {
        content: {
          role: 'model',
          parts: [{ text: 'The sky is blue because air scatters blue light most.' }],
        },
        usageMetadata: { promptTokenCount: 21, candidatesTokenCount: 12, totalTokenCount: 33 },
        modelVersion: 'gpt-4o-mini-2024-07-18',
      },
    ]);
    expect(lastRequest().body.stream).toBe(false);
    expect(lastRequest().body.stream_options).toBeUndefined();
    expect(lastRequest().headers.authorization).toBe('Bearer sk-test-123');
  });

  it('takes a whole JSON answer to a streaming request as the answer', async () => {
    const responses = await collect(
      openai('fixture-ignores-stream').generateContentAsync(ask('Hi'), true),
    );
    expect(responses).toHaveLength(1);
    expect(responses[0]!.content?.parts[0]?.text).toContain('The sky is blue');
  });

  it('sends the conversation as chat messages: tool calls, one tool message per result, images', async () => {
    const contents: Content[] = [
      {
        role: 'user',
        parts: [
          { text: 'What is on this picture, and the weather?' },
          { inlineData: { mimeType: 'image/png', data: 'iVBORw0KGgo=' } },
          {
            inlineData: {
              mimeType: 'text/plain',
              data: bytesToBase64(new TextEncoder().encode('notes')),
            },
          },
        ],
      },
      {
        role: 'model',
        parts: [
          { text: 'Thinking…', thought: true },
          { text: 'Checking.' },
          { functionCall: { id: 'call_1', name: 'get_weather', args: { city: 'Paris' } } },
          { functionCall: { id: 'call_2', name: 'get_weather', args: { city: 'Oslo' } } },
        ],
      },
      {
        role: 'user',
        parts: [
          { functionResponse: { id: 'call_1', name: 'get_weather', response: { sky: 'sun' } } },
          { functionResponse: { id: 'call_2', name: 'get_weather', response: { sky: 'snow' } } },
        ],
      },
    ];
    await collect(
      openai('fixture-text').generateContentAsync({
        contents,
        systemInstruction: 'Be brief.',
        tools: [weatherTool, { name: 'now', description: 'The time' }],
      }),
    );
    const body = lastRequest().body;
    expect(body.messages).toEqual([
      { role: 'system', content: 'Be brief.' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is on this picture, and the weather?' },
          { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
          { type: 'text', text: 'notes' },
        ],
      },
      {
        role: 'assistant',
        content: 'Checking.',
        tool_calls: [
          {
            id: 'call_1',
            type: 'function',
            function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
          },
          {
            id: 'call_2',
            type: 'function',
            function: { name: 'get_weather', arguments: '{"city":"Oslo"}' },
          },
        ],
      },
      { role: 'tool', tool_call_id: 'call_1', content: '{"sky":"sun"}' },
      { role: 'tool', tool_call_id: 'call_2', content: '{"sky":"snow"}' },
    ]);
    expect(body.tools).toEqual([
      { type: 'function', function: weatherTool },
      {
        type: 'function',
        function: {
          name: 'now',
          description: 'The time',
          parameters: { type: 'object', properties: {} },
        },
      },
    ]);
  });

  it('sends an attached text file as text under its name, and says a PDF was left out', async () => {
    const encode = (text: string) => Buffer.from(text).toString('base64');
    await collect(
      openai('fixture-text').generateContentAsync({
        contents: [
          {
            role: 'user',
            parts: [
              { text: 'Summarise these.' },
              {
                inlineData: {
                  mimeType: 'text/markdown',
                  data: encode('# Notes'),
                  displayName: 'notes.md',
                },
              },
              {
                inlineData: {
                  mimeType: 'application/pdf',
                  data: encode('%PDF'),
                  displayName: 'paper.pdf',
                },
              },
            ],
          },
        ],
      }),
    );
    expect(lastRequest().body.messages).toEqual([
      {
        role: 'user',
        content:
          'Summarise these.\nFile notes.md:\n# Notes\n[The application/pdf attachment paper.pdf was left out: this server takes text and images only.]',
      },
    ]);
  });

  it('assembles a tool call streamed in pieces, and answers its result', async () => {
    const model = openai('fixture-tool-call');
    const request = ask('Weather in Paris?', { tools: [weatherTool] });
    const responses = await collect(model.generateContentAsync(request, true));
    expect(responses).toEqual([
      {
        content: {
          role: 'model',
          parts: [
            {
              functionCall: {
                id: 'call_Q7mWc3fixtureA',
                name: 'get_weather',
                args: { city: 'Paris' },
              },
            },
          ],
        },
        usageMetadata: { promptTokenCount: 58, candidatesTokenCount: 15, totalTokenCount: 73 },
        modelVersion: 'gpt-4o-mini-2024-07-18',
      },
    ]);
    const followUp: LlmRequest = {
      ...request,
      contents: [
        ...request.contents,
        responses[0]!.content!,
        {
          role: 'user',
          parts: [
            {
              functionResponse: {
                id: 'call_Q7mWc3fixtureA',
                name: 'get_weather',
                response: { sky: 'sun' },
              },
            },
          ],
        },
      ],
    };
    const answer = await collect(model.generateContentAsync(followUp, true));
    expect(answer.at(-1)!.content?.parts).toEqual([{ text: 'It is sunny in Paris, 21 °C.' }]);
  });

  it('assembles two tool calls of one reply by their index', async () => {
    const responses = await collect(
      openai('fixture-two-tool-calls').generateContentAsync(ask('Paris and Tokyo?'), true),
    );
    expect(responses.at(-1)!.content?.parts).toEqual([
      { functionCall: { id: 'call_Q7mWc3fixtureA', name: 'get_weather', args: { city: 'Paris' } } },
      { functionCall: { id: 'call_Q7mWc3fixtureB', name: 'get_weather', args: { city: 'Tokyo' } } },
    ]);
  });

  it('reads tool calls from a whole (non-streamed) completion', async () => {
    const [response] = await collect(openai('fixture-tool-call').generateContentAsync(ask('?')));
    expect(response!.content?.parts).toEqual([
      { functionCall: { id: 'call_Q7mWc3fixtureA', name: 'get_weather', args: { city: 'Paris' } } },
    ]);
  });

  it('says which call had arguments that are not JSON', async () => {
    const error = await rejectionOf(
      collect(openai('fixture-bad-arguments').generateContentAsync(ask('?'), true)),
    );
    expect(error).toMatchObject({ name: 'ModelError', code: 'MODEL_BAD_RESPONSE' });
    expect(error.message).toContain('arguments for get_weather that are not valid JSON');
  });

  it.each([true, false])(
    'asks for JSON shaped by responseSchema (streaming: %s)',
    async (stream) => {
      const responseSchema = {
        type: 'object',
        properties: { title: { type: 'string' }, confidence: { type: 'number' } },
        required: ['title'],
      };
      const responses = await collect(
        openai('fixture-json').generateContentAsync(ask('Title?', { responseSchema }), stream),
      );
      expect(JSON.parse(responses.at(-1)!.content!.parts[0]!.text!)).toEqual({
        title: 'Blue sky',
        confidence: 0.9,
      });
      expect(lastRequest().body.response_format).toEqual({
        type: 'json_schema',
        json_schema: { name: 'output', schema: responseSchema },
      });
    },
  );

  it('lists the server’s models', async () => {
    expect(await openai('any', 'sk-test-123').listModels()).toEqual([
      'fixture-text',
      'fixture-tool-call',
      'llama3.2:3b',
      'qwen3:8b',
    ]);
    expect(lastRequest()).toMatchObject({ method: 'GET', path: '/v1/models' });
    expect(lastRequest().headers.authorization).toBe('Bearer sk-test-123');
  });

  it('runs an agent that calls a tool and answers, streaming', async () => {
    const calls: unknown[] = [];
    const agent = new LlmAgent({
      name: 'forecaster',
      model: openai('fixture-tool-call'),
      instruction: 'Answer weather questions with the tool.',
      tools: [
        new FunctionTool({
          name: 'get_weather',
          description: 'The weather in a city now',
          parameters: weatherTool.parameters,
          execute: (args) => (calls.push(args), { sky: 'sun', celsius: 21 }),
        }),
      ],
    });
    const runner = new InMemoryRunner({ agent, appName: 'weather' });
    const session = await runner.sessionService.createSession({
      appName: 'weather',
      userId: 'ada',
    });
    const events = await collect(
      runner.runAsync({
        userId: 'ada',
        sessionId: session.id,
        newMessage: createUserContent('Weather in Paris?'),
        runConfig: { streamingMode: 'sse' },
      }),
    );
    expect(calls).toEqual([{ city: 'Paris' }]);
    expect(
      events.map((e) => [
        e.author,
        e.partial ? 'partial' : 'final',
        e.content?.parts.map((p) => p.text ?? p.functionCall?.name ?? p.functionResponse?.name),
      ]),
    ).toEqual([
      ['forecaster', 'final', ['get_weather']],
      ['forecaster', 'final', ['get_weather']],
      ['forecaster', 'partial', ['It is sunny in Paris']],
      ['forecaster', 'partial', [', 21 °C.']],
      ['forecaster', 'final', ['It is sunny in Paris, 21 °C.']],
    ]);
    expect(events.at(-1)!.usageMetadata?.totalTokenCount).toBe(103);
    const followUp = lastRequest().body.messages;
    expect(followUp.at(-1)).toEqual({
      role: 'tool',
      tool_call_id: 'call_Q7mWc3fixtureA',
      content: '{"sky":"sun","celsius":21}',
    });
    expect(followUp[0].content).toContain('Answer weather questions with the tool.');
  });
});
