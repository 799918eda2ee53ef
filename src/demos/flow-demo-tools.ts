// Offline tools for the example flows and for flows people write in the app. Deterministic: the
// same call always gets the same answer.

import type { BaseTool } from '../tools/base-tool.ts';
import { evaluateArithmetic } from '../tools/arithmetic.ts';
import { FunctionTool } from '../tools/function-tool.ts';

const lookupInvoice = new FunctionTool<{ invoice_id: string }>({
  name: 'lookup_invoice',
  description: 'Looks up an invoice by its id (like INV-1042): amount, status and date.',
  parameters: {
    type: 'object',
    properties: { invoice_id: { type: 'string', description: 'The invoice id, e.g. INV-1042' } },
    required: ['invoice_id'],
  },
  execute: ({ invoice_id }) => {
    const digits = Number(invoice_id.replace(/\D/g, '')) || 0;
    const paid = digits % 2 === 0;
    return {
      invoice_id: invoice_id.toUpperCase(),
      amount_eur: 20 + (digits % 180),
      status: paid ? 'paid' : 'open',
      date: `2026-11-${String((digits % 28) + 1).padStart(2, '0')}`,
    };
  },
});

const calculator = new FunctionTool<{ expression: string }>({
  name: 'calculator',
  description: 'Evaluates arithmetic: numbers, + - * / and parentheses.',
  parameters: {
    type: 'object',
    properties: { expression: { type: 'string' } },
    required: ['expression'],
  },
  execute: ({ expression }) => ({ expression, value: evaluateArithmetic(expression) }),
});

const currentTime = new FunctionTool({
  name: 'current_time',
  description: 'The current date and time (ISO 8601, UTC).',
  execute: () => ({ now: new Date().toISOString() }),
});

const saveBrief = new FunctionTool<{ title: string; text: string }>({
  name: 'save_brief',
  description: 'Saves a text as the artifact brief.md.',
  parameters: {
    type: 'object',
    properties: { title: { type: 'string' }, text: { type: 'string' } },
    required: ['title', 'text'],
  },
  execute: async ({ title, text }, toolContext) => {
    const version = await toolContext.saveArtifact('brief.md', { text: `# ${title}\n\n${text}\n` });
    return { saved: 'brief.md', version };
  },
});

export const FLOW_DEMO_TOOLS: readonly BaseTool[] = [
  lookupInvoice,
  calculator,
  currentTime,
  saveBrief,
];

export const FLOW_DEMO_TOOL_NAMES: readonly string[] = FLOW_DEMO_TOOLS.map((tool) => tool.name);
