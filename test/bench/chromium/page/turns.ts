// The events of one turn of the state keeper, shaped as the demo agent writes them: the user's
// message, a set_state call, its response carrying the state delta, and the reply. Every figure
// reads and writes these shapes, so the app and the raw baselines store the same data.

import { createEvent, newInvocationId, type Event } from '../../../../src/index.ts';

export const EVENTS_PER_TURN = 4;

/** The four events of turn `turn`: it sets one of 50 keys, so the state stays small. */
export function turnEvents(turn: number, author = 'state_keeper'): Event[] {
  const invocationId = newInvocationId();
  const key = `key${turn % 50}`;
  const value = `value ${turn}`;
  const callId = `adk-${crypto.randomUUID()}`;
  const message = `${key} is now ${value}.`;
  return [
    createEvent({
      invocationId,
      author: 'user',
      content: { role: 'user', parts: [{ text: `set ${key} to ${value}` }] },
    }),
    createEvent({
      invocationId,
      author,
      content: {
        role: 'model',
        parts: [{ functionCall: { name: 'set_state', args: { key, value }, id: callId } }],
      },
    }),
    createEvent({
      invocationId,
      author,
      content: {
        role: 'user',
        parts: [{ functionResponse: { id: callId, name: 'set_state', response: { message } } }],
      },
      actions: { stateDelta: { [key]: value } },
    }),
    createEvent({
      invocationId,
      author,
      content: { role: 'model', parts: [{ text: message }] },
    }),
  ];
}
