// What Trellis makes of an ADK server's JSON: its events as Trellis's Event (timestamps in ms,
// empty deltas where the server left them out) and its streamed partial events, which carry each
// chunk of text on its own, as partial events that carry the text so far (as Trellis's models do).

import type { Content } from '../core/content.ts';
import type { Event } from '../core/event.ts';
import type { AdkEvent } from './client.ts';

/** A served event as a Trellis Event (nulls dropped; seconds → ms). */
export function fromAdkEvent(raw: AdkEvent): Event {
  const event: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(raw)) if (value !== null) event[key] = value;
  const actions = (event.actions ?? {}) as Record<string, unknown>;
  const timestamp = typeof event.timestamp === 'number' ? event.timestamp : Date.now();
  return {
    ...(event as unknown as Event),
    timestamp: timestamp < 1e11 ? Math.round(timestamp * 1000) : timestamp,
    actions: {
      ...actions,
      stateDelta: (actions.stateDelta ?? {}) as Record<string, unknown>,
      artifactDelta: (actions.artifactDelta ?? {}) as Record<string, number>,
    },
  };
}

/**
 * Turns a server's stream into Trellis's: ADK servers give each streamed chunk an id of its own,
 * while the page gathers the chunks of one answer by their event id; so every partial event of an
 * author's answer gets the id of its first chunk, until a complete event ends that answer.
 */
export class PartialStream {
  private readonly ids = new Map<string, string>();

  next(raw: AdkEvent): Event {
    const event = fromAdkEvent(raw);
    const author = event.author;
    if (!event.partial) {
      this.ids.delete(author);
      return event;
    }
    let id = this.ids.get(author);
    if (id === undefined) this.ids.set(author, (id = event.id));
    const text = (event.content?.parts ?? []).map((part) => part.text ?? '').join('');
    const content: Content = { role: 'model', parts: [{ text }] };
    return { ...event, id, content };
  }
}
