// GeminiModel against the local model server over real HTTP: what it sends, how it streams,
// function calls and their results, usage, JSON mode, finish reasons and the model list.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  GeminiModel,
  createUserContent,
  type Content,
  type LlmRequest,
  type LlmResponse,
} from '../../../src/index.ts';
import { collect } from '../../support/helpers.ts';
import { startModelServer, type ModelServer } from '../../support/model-server.ts';

const apiKey = 'AIza-test-key-7f3c';
let server: ModelServer;
beforeAll(async () => (server = await startModelServer()));
afterAll(() => server.close());

function gemini(model: string): GeminiModel {
  return new GeminiModel({ model, apiKey, baseUrl: `${server.url}/v1beta`, retryBaseMs: 1 });
}

function ask(text: string, extra: Partial<LlmRequest> = {}): LlmRequest {
  return { contents: [createUserContent(text)], ...extra };
}

/** The request the server received last. */
function lastRequest() {
  return server.requests.at(-1)!;
}

const weatherTool = {
  name: 'get_weather',
  description: 'The weather in a city now',
  parameters: {
    type: 'object',
    properties: { city: { type: 'string' } },
    required: ['city'],
    additionalProperties: false,
  },
};

describe('GeminiModel', () => {
  it('streams each chunk’s text as a partial, then the whole answer with its usage', async () => {
    const responses = await collect(
      gemini('fixture-text').generateContentAsync(ask('Why is the sky blue?'), true),
    );
    expect(responses.filter((r) => r.partial).map((r) => r.content?.parts)).toEqual([
      [{ text: 'The sky' }],
      [{ text: ' is blue because air scatters' }],
      [{ text: ' blue light most.' }],
    ]);
    expect(responses.at(-1)).toEqual({
      content: {
        role: 'model',
        parts: [{ text: 'The sky is blue because air scatters blue light most.' }],
      },
      usageMetadata: { promptTokenCount: 9, candidatesTokenCount: 13, totalTokenCount: 22 },
      modelVersion: 'gemini-2.5-flash',
    });
    const request = lastRequest();
    expect(request.method).toBe('POST');
    expect(request.path).toBe('/v1beta/models/fixture-text:streamGenerateContent?alt=sse');
    expect(request.headers['x-goog-api-key']).toBe(apiKey);
    expect(request.path).not.toContain(apiKey);
    expect(request.headers['content-type']).toBe('application/json');
  });

  it('answers in one response without streaming', async () => {
    const responses = await collect(gemini('models/fixture-text').generateContentAsync(ask('Hi')));
    expect(responses).toHaveLength(1);
    expect(responses[0]!.partial).toBeUndefined();
    expect(responses[0]!.content?.parts).toEqual([
      { text: 'The sky is blue because air scatters blue light most.' },
    ]);
    expect(lastRequest().path).toBe('/v1beta/models/fixture-text:generateContent');
  });

  it('takes a whole JSON answer to a streaming request as the answer', async () => {
    const responses = await collect(
      gemini('fixture-ignores-stream').generateContentAsync(ask('Hi'), true),
    );
    expect(responses).toHaveLength(1);
    expect(responses[0]!.content?.parts[0]?.text).toContain('The sky is blue');
  });

  it('sends the conversation, system instruction and tools in Gemini’s shape', async () => {
    const contents: Content[] = [
      {
        role: 'user',
        parts: [{ text: 'Weather here?' }, { inlineData: { mimeType: 'image/png', data: 'iVBO' } }],
      },
      {
        role: 'model',
        parts: [
          { functionCall: { id: 'adk-1b2c', name: 'get_weather', args: { city: 'Paris' } } },
          { functionCall: { id: 'fc-9', name: 'get_weather', args: { city: 'Oslo' } } },
        ],
      },
      {
        role: 'user',
        parts: [
          { functionResponse: { id: 'adk-1b2c', name: 'get_weather', response: { sky: 'sun' } } },
          { functionResponse: { id: 'fc-9', name: 'get_weather', response: { sky: 'snow' } } },
        ],
      },
      { role: 'model', parts: [] },
    ];
    await collect(
      gemini('fixture-text').generateContentAsync({
        model: 'fixture-text',
        contents,
        systemInstruction: 'Be brief.',
        tools: [weatherTool, { name: 'now', description: 'The time' }],
      }),
    );
    expect(lastRequest().body).toEqual({
      contents: [
        {
          role: 'user',
          parts: [
            { text: 'Weather here?' },
            { inlineData: { mimeType: 'image/png', data: 'iVBO' } },
          ],
        },
        {
          role: 'model',
          parts: [
            // ids we made up stay ours; Gemini's own go back to it
            { functionCall: { name: 'get_weather', args: { city: 'Paris' } } },
            { functionCall: { id: 'fc-9', name: 'get_weather', args: { city: 'Oslo' } } },
          ],
        },
        {
          role: 'user',
          parts: [
            { functionResponse: { name: 'get_weather', response: { sky: 'sun' } } },
            { functionResponse: { id: 'fc-9', name: 'get_weather', response: { sky: 'snow' } } },
          ],
        },
      ],
      systemInstruction: { parts: [{ text: 'Be brief.' }] },
      tools: [
        {
          functionDeclarations: [
            {
              name: 'get_weather',
              description: 'The weather in a city now',
              parameters: {
                type: 'OBJECT',
                properties: { city: { type: 'STRING' } },
                required: ['city'],
              },
            },
            { name: 'now', description: 'The time' },
          ],
        },
      ],
    });
  });

  it('returns a function call with its thought signature, which goes back with the result', async () => {
    const model = gemini('fixture-tool-call');
    const request = ask('Weather in Paris?', { tools: [weatherTool] });
    const responses = await collect(model.generateContentAsync(request, true));
    expect(responses).toHaveLength(1); // no text, so no partial
    const call = responses[0]!;
    expect(call.content?.parts).toEqual([
      {
        functionCall: { name: 'get_weather', args: { city: 'Paris' } },
        thoughtSignature: expect.stringMatching(/^CikB/),
      },
    ]);
    expect(call.usageMetadata).toEqual({
      promptTokenCount: 83,
      candidatesTokenCount: 14,
      totalTokenCount: 201,
    });

    const followUp: LlmRequest = {
      ...request,
      contents: [
        ...request.contents,
        call.content!,
        {
          role: 'user',
          parts: [
            { functionResponse: { name: 'get_weather', response: { sky: 'sun', celsius: 21 } } },
          ],
        },
      ],
    };
    const answer = await collect(model.generateContentAsync(followUp, true));
    expect(answer.at(-1)!.content?.parts).toEqual([{ text: 'It is sunny in Paris, 21 °C.' }]);
    const sent = lastRequest().body.contents;
    expect(sent[1].parts[0].thoughtSignature).toBe(
      (call.content!.parts[0] as { thoughtSignature?: string }).thoughtSignature,
    );
    expect(sent[2]).toEqual({
      role: 'user',
      parts: [{ functionResponse: { name: 'get_weather', response: { sky: 'sun', celsius: 21 } } }],
    });
  });

  it('keeps Gemini’s call ids, and text before the calls streams as a partial', async () => {
    const responses = await collect(
      gemini('fixture-two-tool-calls').generateContentAsync(
        ask('Paris and Tokyo?', { tools: [weatherTool] }),
        true,
      ),
    );
    expect(responses[0]).toEqual({
      content: { role: 'model', parts: [{ text: 'Let me check both cities.' }] },
      partial: true,
    });
    expect(responses.at(-1)!.content?.parts).toEqual([
      { text: 'Let me check both cities.' },
      { functionCall: { id: 'fc-paris-7k2', name: 'get_weather', args: { city: 'Paris' } } },
      { functionCall: { id: 'fc-tokyo-9q1', name: 'get_weather', args: { city: 'Tokyo' } } },
    ]);
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
        gemini('fixture-json').generateContentAsync(ask('Title?', { responseSchema }), stream),
      );
      const text = responses.at(-1)!.content!.parts[0]!.text!;
      expect(JSON.parse(text)).toEqual({ title: 'Blue sky', confidence: 0.9 });
      expect(lastRequest().body.generationConfig).toEqual({
        responseMimeType: 'application/json',
        responseSchema: {
          type: 'OBJECT',
          properties: { title: { type: 'STRING' }, confidence: { type: 'NUMBER' } },
          required: ['title'],
        },
      });
    },
  );

  it.each<[string, Partial<LlmResponse>]>([
    [
      'fixture-safety',
      { errorCode: 'SAFETY', errorMessage: 'Gemini stopped the answer for safety reasons.' },
    ],
    [
      'fixture-blocked',
      {
        errorCode: 'PROHIBITED_CONTENT',
        errorMessage: 'Gemini blocked the prompt (PROHIBITED_CONTENT).',
      },
    ],
  ])('turns %s’s finish into an error on the final response', async (name, error) => {
    const responses = await collect(gemini(name).generateContentAsync(ask('…'), true));
    expect(responses.at(-1)).toMatchObject(error);
    expect(responses.at(-1)!.partial).toBeUndefined();
  });

  it('lists the models that can generate content', async () => {
    expect(await gemini('any').listModels()).toEqual([
      'gemini-2.5-flash',
      'gemini-2.5-pro',
      'fixture-text',
    ]);
    const request = lastRequest();
    expect(request.method).toBe('GET');
    expect(request.path).toBe('/v1beta/models?pageSize=1000');
    expect(request.headers['x-goog-api-key']).toBe(apiKey);
  });
});
