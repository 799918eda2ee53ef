// The help desk: a demo of ADK 2.0's Workflow that runs offline, with no model. A message is
// triaged (a route: billing, else technical), its desk hands it to two nodes side by side (a
// reply drafted, a ticket opened), a join takes both, a person reviews the reply (RequestInput:
// the chat's reply card, which waits across reloads), and the answer is sent, or not.

import { DEFAULT_ROUTE } from '../workflow/graph.ts';
import type { NodeContext } from '../workflow/node-context.ts';
import {
  FunctionNode,
  JoinNode,
  RequestInput,
  type FunctionNodeHandler,
} from '../workflow/nodes.ts';
import { Workflow } from '../workflow/workflow.ts';

const BILLING = /\b(bill|billing|refund|charge[ds]?|invoice|payment|paid|price)\b/i;

/** Waits `ms` (the demo's pace), unless Stop came. */
const pause = (ctx: NodeContext, ms: number) =>
  ms <= 0
    ? Promise.resolve()
    : new Promise<void>((resolve, reject) => {
        const signal = ctx.invocationContext.runConfig.signal;
        const timer = setTimeout(resolve, ms);
        signal?.addEventListener('abort', () => {
          clearTimeout(timer);
          reject(signal.reason as Error);
        });
      });

export function createHelpDesk(timing: { thinkMs?: number } = {}): Workflow {
  const think = timing.thinkMs ?? 600;

  async function triage(ctx: NodeContext, input: unknown) {
    await pause(ctx, think);
    const question = String(input ?? '').trim();
    const desk = BILLING.test(question) ? 'billing' : 'technical';
    ctx.state.set('question', question);
    ctx.state.set('desk', desk);
    ctx.route = desk;
    return `Triage: this goes to the ${desk} desk.`;
  }
  async function billing(ctx: NodeContext) {
    await pause(ctx, think);
    return 'Billing desk: I checked the account; the last invoice can be refunded.';
  }
  async function technical(ctx: NodeContext) {
    await pause(ctx, think);
    return 'Technical desk: this looks like a known issue with a workaround.';
  }
  async function reply(ctx: NodeContext, input: unknown) {
    await pause(ctx, think);
    const question = String(ctx.state.get('question') ?? '');
    return `Draft reply: Thank you for writing ("${question}"). ${String(input).replace(/^[^:]*: /, '')}`;
  }
  async function ticket(ctx: NodeContext) {
    await pause(ctx, think);
    const number = 1000 + (String(ctx.state.get('question') ?? '').length % 9000);
    ctx.state.set('ticket', `T-${number}`);
    return { ticket: `T-${number}`, desk: ctx.state.get('desk') };
  }
  function* review(_ctx: NodeContext, input: unknown) {
    const { reply: draft } = input as { reply?: unknown };
    yield new RequestInput({
      message: `Send this reply to the customer? Answer yes, or write what to change.\n\n${String(draft)}`,
    });
  }
  async function publish(ctx: NodeContext, input: unknown) {
    await pause(ctx, think);
    const answer = String(
      typeof input === 'object' && input !== null ? JSON.stringify(input) : input,
    );
    const sent = /^\s*(yes|y|ok|send|approve[d]?)\b/i.test(answer);
    ctx.state.set('sent', sent);
    return sent
      ? `Sent, and ticket ${String(ctx.state.get('ticket'))} is closed.`
      : `Not sent: the reviewer asked for changes ("${answer}"). Ticket ${String(ctx.state.get('ticket'))} stays open.`;
  }

  // Named here, not by the functions' own names: the app's bundle renames functions.
  const named = (handler: FunctionNodeHandler, name: string) => new FunctionNode(name, handler);
  const nodes = {
    triage: named(triage, 'triage'),
    billing: named(billing, 'billing'),
    technical: named(technical, 'technical'),
    reply: named(reply, 'reply'),
    ticket: named(ticket, 'ticket'),
    review: named(review, 'review'),
    publish: named(publish, 'publish'),
  };
  const join = new JoinNode({ name: 'join' });
  const both = [nodes.reply, nodes.ticket];
  return new Workflow({
    name: 'help_desk',
    description: 'Triage, two desks, a reply and a ticket side by side, a human review, send.',
    edges: [
      ['START', nodes.triage, { billing: nodes.billing, [DEFAULT_ROUTE]: nodes.technical }],
      [nodes.billing, both],
      [nodes.technical, both],
      [both, join, nodes.review, nodes.publish],
    ],
  });
}
