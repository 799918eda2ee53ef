// An ADK 2.0 Workflow served by the ADK API server: triage routes a message to billing (a word
// like "bill") or, by DEFAULT_ROUTE, to tech, and a summary node closes it. Plain functions, no
// model; named explicitly, as the loader may see them minified.
import { DEFAULT_ROUTE, FunctionNode, Workflow } from '@google/adk';

const triage = new FunctionNode('triage', (ctx, input) => {
  const text = String(input ?? '');
  ctx.state.set('question', text);
  ctx.route = /\bbill/i.test(text) ? 'billing' : 'tech';
  return `Triage: ${/\bbill/i.test(text) ? 'billing' : 'tech'}`;
});
const billing = new FunctionNode('billing', () => 'Billing: a refund is on its way.');
const tech = new FunctionNode('tech', () => 'Tech: try turning it off and on again.');
const summary = new FunctionNode('summary', (_ctx, input) => `Done (${String(input)})`);

export const rootAgent = new Workflow({
  name: 'workflow',
  edges: [
    ['START', triage, { billing, [DEFAULT_ROUTE]: tech }],
    [billing, summary],
    [tech, summary],
  ],
});
