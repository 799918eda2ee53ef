// Our request and Content to the Generative Language API's JSON, and its answers back. Pure: no
// I/O, so the shapes are pinned by tests without a server.

import type { Content, Part } from '../core/content.ts';
import type { UsageMetadata } from '../core/event.ts';
import type { FunctionDeclaration, JsonSchema, LlmRequest, LlmResponse } from './llm.ts';

/**
 * A part as Gemini sends it. `thoughtSignature` is kept on our Part (an extra field, which
 * events store as they are) because thinking models reject a follow-up whose function calls
 * lost the signature they came with.
 */
export interface GeminiPart {
  text?: string;
  thought?: boolean;
  thoughtSignature?: string;
  functionCall?: { id?: string; name: string; args?: Record<string, unknown> };
  functionResponse?: { id?: string; name: string; response: Record<string, unknown> };
  inlineData?: { mimeType: string; data: string };
}

export interface GeminiContent {
  role?: string;
  parts?: GeminiPart[];
}

export interface GeminiResponse {
  candidates?: { content?: GeminiContent; finishReason?: string; finishMessage?: string }[];
  promptFeedback?: { blockReason?: string; blockReasonMessage?: string };
  usageMetadata?: {
    promptTokenCount?: number;
    candidatesTokenCount?: number;
    totalTokenCount?: number;
  };
  modelVersion?: string;
  error?: { code?: number; message?: string; status?: string };
}

type SignedPart = Part & { thoughtSignature?: string };

/** The body of a generateContent / streamGenerateContent request. */
export function toGeminiRequest(request: LlmRequest): Record<string, unknown> {
  const contents = request.contents.filter((c) => c.parts.length > 0).map(toGeminiContent);
  const declarations = request.tools?.map(toGeminiDeclaration) ?? [];
  return {
    contents,
    ...(request.systemInstruction
      ? { systemInstruction: { parts: [{ text: request.systemInstruction }] } }
      : {}),
    ...(declarations.length > 0 ? { tools: [{ functionDeclarations: declarations }] } : {}),
    ...generationConfigOf(request),
  };
}

/** Structured output and the request's `config`, as Gemini's `generationConfig`. */
function generationConfigOf({ responseSchema, config }: LlmRequest): Record<string, unknown> {
  const generationConfig = {
    ...(responseSchema
      ? { responseMimeType: 'application/json', responseSchema: toGeminiSchema(responseSchema) }
      : {}),
    ...(config?.temperature !== undefined ? { temperature: config.temperature } : {}),
    ...(config?.topP !== undefined ? { topP: config.topP } : {}),
    ...(config?.maxOutputTokens !== undefined ? { maxOutputTokens: config.maxOutputTokens } : {}),
  };
  return Object.keys(generationConfig).length > 0 ? { generationConfig } : {};
}

function toGeminiContent(content: Content): GeminiContent {
  return {
    role: content.role === 'model' ? 'model' : 'user',
    parts: content.parts.map(toGeminiPart),
  };
}

function toGeminiPart(part: SignedPart): GeminiPart {
  const signature = part.thoughtSignature ? { thoughtSignature: part.thoughtSignature } : {};
  if (part.functionCall) {
    const { id, name, args } = part.functionCall;
    return { functionCall: { ...geminiId(id), name, args }, ...signature };
  }
  if (part.functionResponse) {
    const { id, name, response } = part.functionResponse;
    return { functionResponse: { ...geminiId(id), name, response } };
  }
  if (part.inlineData) {
    return { inlineData: { mimeType: part.inlineData.mimeType, data: part.inlineData.data } };
  }
  return { text: part.text ?? '', ...(part.thought ? { thought: true } : {}), ...signature };
}

/** Ids the model gave are sent back; ids we made up (ADK's `adk-…`) are ours alone, as in ADK. */
function geminiId(id: string | undefined): { id?: string } {
  return id && !id.startsWith('adk-') ? { id } : {};
}

function toGeminiDeclaration(declaration: FunctionDeclaration): Record<string, unknown> {
  const { name, description, parameters } = declaration;
  // Gemini rejects an OBJECT schema with no properties: a function without arguments has none.
  const hasArguments = parameters && Object.keys(parameters.properties ?? {}).length > 0;
  return {
    name,
    ...(description ? { description } : {}),
    ...(hasArguments ? { parameters: toGeminiSchema(parameters) } : {}),
  };
}

/** Keywords of Gemini's OpenAPI-subset Schema that are copied as they are. */
const KEPT = [
  'description',
  'title',
  'nullable',
  'minimum',
  'maximum',
  'minItems',
  'maxItems',
  'minLength',
  'maxLength',
  'minProperties',
  'maxProperties',
  'pattern',
  'propertyOrdering',
] as const;

/** The formats Gemini accepts; any other one is dropped rather than failing the request. */
const FORMATS = new Set(['enum', 'date-time', 'int32', 'int64', 'float', 'double']);

/**
 * A JSON Schema in Gemini's subset: upper-case types, `["x", "null"]` as `nullable`, `oneOf` as
 * `anyOf`, `const` as a one-value enum; unknown keywords (`$schema`, `additionalProperties`, …)
 * dropped. Gemini takes only string enums: other enums move into the description.
 */
export function toGeminiSchema(schema: JsonSchema): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const types = (Array.isArray(schema.type) ? schema.type : [schema.type]).filter(
    (t): t is string => typeof t === 'string',
  );
  const concrete = types.filter((t) => t !== 'null');
  if (types.includes('null')) out.nullable = true;
  if (concrete.length === 1) out.type = concrete[0]!.toUpperCase();
  else if (concrete.length > 1) out.anyOf = concrete.map((t) => ({ type: t.toUpperCase() }));
  for (const key of KEPT) if (schema[key] !== undefined) out[key] = schema[key];
  if (typeof schema.format === 'string' && FORMATS.has(schema.format)) out.format = schema.format;
  const values = schema.const !== undefined ? [schema.const] : schema.enum;
  if (values) {
    if (values.every((v) => typeof v === 'string')) {
      out.enum = values;
      out.type ??= 'STRING';
    } else {
      const list = values.map((v) => JSON.stringify(v)).join(', ');
      out.description = `${schema.description ? `${schema.description} ` : ''}(one of ${list})`;
    }
  }
  if (schema.properties) {
    out.properties = Object.fromEntries(
      Object.entries(schema.properties).map(([key, value]) => [key, toGeminiSchema(value)]),
    );
    if (schema.required) {
      out.required = schema.required.filter((key) => key in schema.properties!);
    }
  }
  if (schema.items && !Array.isArray(schema.items)) out.items = toGeminiSchema(schema.items);
  const alternatives = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (Array.isArray(alternatives)) out.anyOf = alternatives.map(toGeminiSchema);
  return out;
}

/** Why Gemini stopped, when that is not a normal end. */
const STOP_REASONS: Record<string, string> = {
  SAFETY: 'Gemini stopped the answer for safety reasons.',
  RECITATION: 'Gemini stopped the answer because it was reciting existing text.',
  MAX_TOKENS: 'The answer was cut off at the maximum number of output tokens.',
  BLOCKLIST: 'Gemini stopped the answer because it contained blocked terms.',
  PROHIBITED_CONTENT: 'Gemini stopped the answer because it contained prohibited content.',
  SPII: 'Gemini stopped the answer because it contained sensitive personal information.',
  MALFORMED_FUNCTION_CALL: 'Gemini produced a function call it could not complete.',
};

/**
 * The answer being streamed: each chunk adds text (returned as that chunk's new parts, for the
 * partial response) and function calls; `final()` is the whole answer, aggregated.
 */
export class GeminiAnswer {
  private text = '';
  private thoughts = '';
  private textSignature: string | undefined;
  private readonly others: SignedPart[] = [];
  private usage: UsageMetadata | undefined;
  private modelVersion: string | undefined;
  private finishReason: string | undefined;
  private finishMessage: string | undefined;
  private blocked: { reason: string; message?: string } | undefined;
  private candidates = 0;

  /** Whether Gemini said the answer is complete (a finish reason, or a blocked prompt). */
  get finished(): boolean {
    return this.finishReason !== undefined || this.blocked !== undefined;
  }

  /** Whether anything at all came (a candidate or a block): an empty answer is malformed. */
  get answered(): boolean {
    return this.candidates > 0 || this.blocked !== undefined;
  }

  add(chunk: GeminiResponse): Part[] {
    if (chunk.usageMetadata) this.usage = toUsage(chunk.usageMetadata);
    if (chunk.modelVersion) this.modelVersion = chunk.modelVersion;
    const feedback = chunk.promptFeedback;
    if (feedback?.blockReason) {
      this.blocked = {
        reason: feedback.blockReason,
        ...(feedback.blockReasonMessage ? { message: feedback.blockReasonMessage } : {}),
      };
    }
    const candidate = chunk.candidates?.[0];
    if (!candidate) return [];
    this.candidates++;
    if (candidate.finishReason) this.finishReason = candidate.finishReason;
    if (candidate.finishMessage) this.finishMessage = candidate.finishMessage;
    const fresh: Part[] = [];
    for (const part of candidate.content?.parts ?? []) {
      if (part.functionCall) {
        const { id, name, args } = part.functionCall;
        this.others.push({
          functionCall: { ...(id ? { id } : {}), name, args: args ?? {} },
          ...(part.thoughtSignature ? { thoughtSignature: part.thoughtSignature } : {}),
        });
      } else if (part.inlineData) {
        this.others.push({ inlineData: part.inlineData });
      } else if (part.text !== undefined) {
        if (part.thought) this.thoughts += part.text;
        else this.text += part.text;
        if (part.thoughtSignature) this.textSignature = part.thoughtSignature;
        if (part.text)
          fresh.push(part.thought ? { text: part.text, thought: true } : { text: part.text });
      }
      // Other kinds (executableCode, …) are tools Trellis does not offer: nothing to keep.
    }
    return fresh;
  }

  final(): LlmResponse {
    const parts: SignedPart[] = [];
    if (this.thoughts) parts.push({ text: this.thoughts, thought: true });
    const signature = this.textSignature ? { thoughtSignature: this.textSignature } : {};
    if (this.text || this.textSignature) parts.push({ text: this.text, ...signature });
    parts.push(...this.others);
    return {
      ...(parts.length > 0 ? { content: { role: 'model', parts } } : {}),
      ...this.failure(),
      ...(this.usage ? { usageMetadata: this.usage } : {}),
      ...(this.modelVersion ? { modelVersion: this.modelVersion } : {}),
    };
  }

  private failure(): Pick<LlmResponse, 'errorCode' | 'errorMessage'> {
    if (this.blocked) {
      const { reason, message } = this.blocked;
      return {
        errorCode: reason,
        errorMessage: `Gemini blocked the prompt (${reason})${message ? `: ${message}` : '.'}`,
      };
    }
    const reason = this.finishReason;
    if (!reason || reason === 'STOP' || reason === 'FINISH_REASON_UNSPECIFIED') return {};
    return {
      errorCode: reason,
      errorMessage:
        this.finishMessage ?? STOP_REASONS[reason] ?? `Gemini stopped the answer (${reason}).`,
    };
  }
}

function toUsage(usage: NonNullable<GeminiResponse['usageMetadata']>): UsageMetadata {
  const out: UsageMetadata = {};
  if (usage.promptTokenCount !== undefined) out.promptTokenCount = usage.promptTokenCount;
  if (usage.candidatesTokenCount !== undefined) {
    out.candidatesTokenCount = usage.candidatesTokenCount;
  }
  if (usage.totalTokenCount !== undefined) out.totalTokenCount = usage.totalTokenCount;
  return out;
}
