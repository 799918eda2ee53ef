// The approval cards, read from the active events: the calls still waiting, each with the
// sentence its card leads with — the tool's own hint, or, for ADK's default hint (written for
// developers, as an ADK server sends it), a sentence for people.

import { describe, expect, it } from 'vitest';
import { createEvent, type Event } from '../../../src/index.ts';
import { pendingApprovals } from '../../../src/ui/chat/approvals-model.ts';

/** ADK's hint for a tool with `requireConfirmation: true` (@google/adk's FunctionTool). */
const ADK_DEFAULT_HINT =
  'Please approve or reject the tool call send_coins() by responding with a FunctionResponse with an expected ToolConfirmation payload.';

function request(id: string, tool: string, hint: string | undefined): Event {
  return createEvent({
    invocationId: 'e-1',
    author: 'approval',
    content: {
      role: 'model',
      parts: [
        {
          functionCall: {
            id,
            name: 'adk_request_confirmation',
            args: {
              originalFunctionCall: { id: `${id}-call`, name: tool, args: { amount: 5 } },
              toolConfirmation: { ...(hint !== undefined ? { hint } : {}), confirmed: false },
            },
          },
        },
      ],
    },
    longRunningToolIds: [id],
  });
}

describe('pending approvals', () => {
  it('leads with the tool’s own hint, or a sentence for people in place of ADK’s developer hint', () => {
    const pending = pendingApprovals([
      request('a', 'send_coins', ADK_DEFAULT_HINT),
      request('b', 'spend', 'Spend $50?'),
      request('c', 'publish', undefined),
    ]);
    expect(pending.map((approval) => [approval.toolName, approval.hint])).toEqual([
      [
        'send_coins',
        'Approve this call of send_coins to let it run, or reject it: the agent is told either way.',
      ],
      ['spend', 'Spend $50?'],
      [
        'publish',
        'Approve this call of publish to let it run, or reject it: the agent is told either way.',
      ],
    ]);
    expect(pending[0]).toMatchObject({ author: 'approval', args: { amount: 5 } });
  });

  it('drops a call the user has answered', () => {
    const answer = createEvent({
      invocationId: 'e-1',
      author: 'user',
      content: {
        role: 'user',
        parts: [
          {
            functionResponse: {
              id: 'a',
              name: 'adk_request_confirmation',
              response: { confirmed: true },
            },
          },
        ],
      },
    });
    expect(pendingApprovals([request('a', 'send_coins', ADK_DEFAULT_HINT), answer])).toEqual([]);
  });
});
