// Server-sent events (the WHATWG event-stream format), parsed from a byte stream. EventSource
// cannot POST or send headers, so both providers' streams are read through fetch and this.

export interface SseEvent {
  /** The `event:` field; 'message' when absent. */
  event: string;
  /** The `data:` lines, joined with '\n'. */
  data: string;
}

/**
 * An incremental parser: feed it text as it arrives, in chunks cut anywhere (mid-line, between
 * the CR and LF of a CRLF), and it returns the events completed so far.
 */
export class SseParser {
  private buffer = '';
  private data: string[] = [];
  private event = '';

  push(text: string): SseEvent[] {
    this.buffer += text;
    const events: SseEvent[] = [];
    let start = 0;
    for (let i = 0; i < this.buffer.length; i++) {
      const c = this.buffer[i];
      if (c !== '\n' && c !== '\r') continue;
      // A CR as the last character may be the first half of a CRLF: wait for the next chunk.
      if (c === '\r' && i === this.buffer.length - 1) break;
      const event = this.line(this.buffer.slice(start, i));
      if (event) events.push(event);
      if (c === '\r' && this.buffer[i + 1] === '\n') i++;
      start = i + 1;
    }
    this.buffer = this.buffer.slice(start);
    return events;
  }

  /**
   * The end of the stream. A last event whose lines were complete but that lacked its blank line
   * is still delivered (some servers omit it); a half line is dropped, as the standard says, so a
   * cut-off stream shows up as missing its end rather than as garbled JSON.
   */
  end(): SseEvent[] {
    const events = this.buffer.endsWith('\r') ? this.push('\n') : [];
    const cut = this.buffer !== '';
    this.buffer = '';
    if (cut) {
      this.data = [];
      return events;
    }
    const last = this.line('');
    return last ? [...events, last] : events;
  }

  private line(line: string): SseEvent | undefined {
    if (line === '') {
      const event =
        this.data.length > 0
          ? { event: this.event || 'message', data: this.data.join('\n') }
          : undefined;
      this.data = [];
      this.event = '';
      return event;
    }
    if (line.startsWith(':')) return undefined; // a comment (keep-alive)
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') this.data.push(value);
    else if (field === 'event') this.event = value;
    return undefined;
  }
}

/** The events of a byte stream, decoded as UTF-8 (characters split across chunks included). */
export async function* sseEvents(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<SseEvent> {
  const decoder = new TextDecoder();
  const parser = new SseParser();
  for await (const chunk of chunks) {
    yield* parser.push(decoder.decode(chunk, { stream: true }));
  }
  yield* parser.push(decoder.decode());
  yield* parser.end();
}
