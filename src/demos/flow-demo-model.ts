// The offline model behind the example flows (and flows people write in the app until they
// configure a real model). Rules, not an LLM: it reads the request as a flow node would send it
// and gives a plausible, deterministic answer, so every node type can be tried offline.

import { textOf } from '../core/content.ts';
import type { JsonSchema, LlmRequest, LlmResponse } from '../models/llm.ts';
import {
  DemoModel,
  callFunction,
  lastToolResponse,
  lastUserMessage,
} from '../models/demo-model.ts';
import type { DemoTiming } from './writing-workflow.ts';
import { sourcesOf, type KnowledgeSource } from '../knowledge/types.ts';
import { isKnowledgeTool } from '../tools/knowledge-tool.ts';

/** Words that point to an enum value that is not itself in the message. */
const SYNONYMS: Record<string, readonly string[]> = {
  billing: ['invoice', 'bill', 'payment', 'refund', 'charge', 'price', 'paid'],
  tech: ['error', 'crash', 'bug', 'login', 'install', 'password', 'broken'],
};

export function createFlowDemoModel(timing: DemoTiming = {}): DemoModel {
  return new DemoModel({
    answer: flowDemoAnswer,
    thinkMs: timing.thinkMs ?? 400,
    chunkDelayMs: timing.chunkDelayMs ?? 20,
  });
}

export function flowDemoAnswer(request: LlmRequest): LlmResponse | string {
  const question = lastUserMessage(request).text;
  const properties = request.responseSchema?.properties;
  const scenarios = properties?.['output']?.enum;
  if (scenarios && Object.keys(properties!).length === 1) {
    return JSON.stringify({ output: pickScenario(latestText(request), scenarios.map(String)) });
  }
  if (properties)
    return '```json\n' + JSON.stringify(structured(properties, question), null, 2) + '\n```';
  const result = lastToolResponse(request) ?? toolResultInContext(latestText(request));
  if (result) return describeResult(result.name, result.response, question);
  const call = toolCall(request, question);
  if (call) return call;
  return plainAnswer(request, question);
}

/** The scenario named in the latest message (longest name first), else the last one. */
function pickScenario(text: string, scenarios: readonly string[]): string {
  const words = new Set(text.toLowerCase().match(/[a-z0-9-]+/g) ?? []);
  const named = [...scenarios]
    .sort((a, b) => b.length - a.length)
    .find((scenario) => words.has(scenario.toLowerCase()));
  return named ?? scenarios.at(-1)!;
}

function structured(properties: Record<string, JsonSchema>, question: string) {
  const words: string[] = question.toLowerCase().match(/[a-z0-9-]+/g) ?? [];
  const value: Record<string, unknown> = {};
  for (const [key, schema] of Object.entries(properties)) {
    if (schema.enum) {
      const options = schema.enum.map(String);
      value[key] =
        options.find((option) => words.includes(option.toLowerCase())) ??
        options.find((option) =>
          SYNONYMS[option]?.some((synonym) => words.some((word) => word.startsWith(synonym))),
        ) ??
        options.at(-1);
    } else if (schema.type === 'number') value[key] = words.length;
    else if (schema.type === 'boolean') value[key] = question.includes('?');
    else if (schema.type === 'array')
      value[key] = [...new Set(words.filter((w) => w.length > 3))].slice(0, 3);
    else value[key] = question.replace(/[?.!]+$/, '').trim();
  }
  return value;
}

/** A call to the first offered tool the message gives arguments for. */
function toolCall(request: LlmRequest, question: string): LlmResponse | undefined {
  const offered = new Set(request.tools?.map((tool) => tool.name));
  // A knowledge base is searched for the question itself (Flowise's RAG agents do so first).
  const knowledge = request.tools?.find(isKnowledgeTool);
  if (knowledge && question.trim()) return callFunction(knowledge.name, { query: question });
  const invoice = question.match(/\bINV-?\d+\b/i)?.[0];
  if (offered.has('lookup_invoice') && invoice)
    return callFunction('lookup_invoice', { invoice_id: invoice });
  const arithmetic = question.match(/[\d(][\d\s+\-*/().]*[\d)]/)?.[0];
  if (offered.has('calculator') && arithmetic && /[+\-*/]/.test(arithmetic)) {
    return callFunction('calculator', { expression: arithmetic.trim() });
  }
  if (offered.has('current_time') && /\b(time|date|today)\b/i.test(question))
    return callFunction('current_time', {});
  if (offered.has('save_brief')) {
    const topic =
      /brief on (.+?) from these notes/i.exec(request.systemInstruction ?? '')?.[1] ?? question;
    return callFunction('save_brief', {
      title: topic,
      text: notesOf(request.systemInstruction ?? ''),
    });
  }
  return undefined;
}

function describeResult(name: string, response: Record<string, unknown>, question: string): string {
  const error = response['error'];
  if (typeof error === 'string') {
    return /rejected/i.test(error)
      ? 'That step was not approved, so this is still unresolved.'
      : `The ${name} tool failed (${error}), so this is still unresolved.`;
  }
  if (name === 'lookup_invoice') {
    const { invoice_id, amount_eur, status, date } = response as Record<string, string | number>;
    return `Invoice ${invoice_id} is for €${amount_eur} dated ${date}, and it is ${status}. This is resolved.`;
  }
  const sources = sourcesOf(response);
  if ('sources' in response) return answerFrom(sources, question);
  if (name === 'save_brief')
    return `The brief is saved as ${String(response['saved'])} (version ${String(response['version'])}).`;
  return `The ${name} tool says: ${JSON.stringify(response)}.`;
}

/**
 * An answer from a knowledge search: the sentence of the sources that shares the most words with
 * the question, citing its source; none shares any, Flowise's RAG agents' "not sure".
 */
function answerFrom(sources: readonly KnowledgeSource[], question: string): string {
  const asked = new Set(wordsOf(question).filter((word) => word.length > 3));
  let best: { sentence: string; source: number; shared: number } | undefined;
  for (const { text, source } of sources)
    for (const sentence of text.split(/(?<=[.!?])\s+|\n+/)) {
      const shared = new Set(wordsOf(sentence).filter((word) => asked.has(word))).size;
      if (shared > (best?.shared ?? 0)) best = { sentence: sentence.trim(), source, shared };
    }
  return best
    ? `${best.sentence.replace(/^#+\s*/, '')} [${best.source}]`
    : "Hmm, I'm not sure: the documents I searched don't say.";
}

const wordsOf = (text: string): string[] => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

/** A text answer shaped by what the node's instruction asks for. */
function plainAnswer(request: LlmRequest, question: string): string {
  const instruction = request.systemInstruction ?? '';
  const topic =
    /(?:advantages|drawbacks|brief) (?:of|on) (.+?)[.:]/i.exec(instruction)?.[1] ?? question;
  if (/advantages/i.test(instruction)) return `${topic} is cheap to start with and easy to learn.`;
  if (/drawbacks/i.test(instruction))
    return `${topic} takes steady practice, and results come slowly.`;
  if (/billing/i.test(instruction)) {
    return 'I need the invoice number (like INV-1042) to look into it. Still unresolved.';
  }
  if (/technical/i.test(instruction)) {
    return `For "${question}": restart the app, then sign in again. Tell me if the problem stays.`;
  }
  return `(demo rules) You said: ${question}`;
}

/** Another node's tool result, as the conversation tells it ("[save] `x` tool returned result: {…}"). */
function toolResultInContext(text: string) {
  const found = /`([\w-]+)` tool returned result: (\{.*\})\s*$/s.exec(text);
  if (!found) return undefined;
  try {
    return { name: found[1]!, response: JSON.parse(found[2]!) as Record<string, unknown> };
  } catch {
    return undefined;
  }
}

function latestText(request: LlmRequest): string {
  return textOf(request.contents.at(-1));
}

function notesOf(instruction: string): string {
  const notes = /from these notes: (\[.*\])/s.exec(instruction)?.[1];
  try {
    const list = notes ? (JSON.parse(notes) as unknown[]) : [];
    return list.map((note) => `- ${String(note)}`).join('\n');
  } catch {
    return notes ?? '';
  }
}
