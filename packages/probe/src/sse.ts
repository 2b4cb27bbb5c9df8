// Pure module: an incremental parser for `text/event-stream`, fed decoded text chunk by chunk, so an
// answer can be taken from the first matching event without waiting for the stream to end.

/** One dispatched event: its type (`message` when none was named) and its data lines joined by `\n`. */
export interface SseEvent {
  readonly event: string;
  readonly data: string;
}

/**
 * Parses server-sent events as the HTML standard describes: lines end in CR, LF or CRLF (also split
 * across chunks), `data:` lines accumulate, a blank line dispatches, `:` lines are comments, and an
 * event without data is not dispatched. Text after the last blank line is never dispatched. The `id` and
 * `retry` fields are kept (`lastEventId`, `retryMs`) for a client that resumes a closed stream.
 */
export class SseParser {
  private buffer = '';
  private skipLeadingLf = false;
  private eventType = '';
  private dataLines: string[] = [];
  private hasData = false;
  private idBuffer = '';
  private dispatchedId = '';
  private retry: number | null = null;

  /** The last event id, set at each blank line from the last `id:` field; '' when none came. */
  get lastEventId(): string {
    return this.dispatchedId;
  }

  /** The last valid `retry:` value in milliseconds; null when the server sent none. */
  get retryMs(): number | null {
    return this.retry;
  }

  /** Feeds decoded text; returns the events completed by it. */
  push(text: string): SseEvent[] {
    const events: SseEvent[] = [];
    let input = text;
    if (this.skipLeadingLf && input.startsWith('\n')) input = input.slice(1);
    this.skipLeadingLf = false;
    // Only the new text is scanned: a long data line arriving in many chunks must stay linear.
    let i = this.buffer.length;
    this.buffer += input;
    let start = 0;
    for (; i < this.buffer.length; i++) {
      const c = this.buffer.charCodeAt(i);
      if (c !== 10 && c !== 13) continue;
      this.takeLine(this.buffer.slice(start, i), events);
      if (c === 13) {
        if (i + 1 < this.buffer.length) {
          if (this.buffer.charCodeAt(i + 1) === 10) i++;
        } else {
          // A CR at the end of the chunk may be the first half of a CRLF.
          this.skipLeadingLf = true;
        }
      }
      start = i + 1;
    }
    if (start > 0) this.buffer = this.buffer.slice(start);
    return events;
  }

  private takeLine(line: string, events: SseEvent[]): void {
    if (line === '') {
      // The standard sets the last event id on every dispatch, even of an event without data: a server's
      // priming event (an id and an empty data line, or just an id) is what a resumption starts from.
      this.dispatchedId = this.idBuffer;
      if (this.hasData)
        events.push({ event: this.eventType === '' ? 'message' : this.eventType, data: this.dataLines.join('\n') });
      this.eventType = '';
      this.dataLines = [];
      this.hasData = false;
      return;
    }
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') {
      this.dataLines.push(value);
      this.hasData = true;
    } else if (field === 'event') {
      this.eventType = value;
    } else if (field === 'id') {
      // An id holding NUL is ignored, as the standard says.
      if (!value.includes('\u0000')) this.idBuffer = value;
    } else if (field === 'retry') {
      if (/^[0-9]+$/.test(value)) this.retry = Number(value);
    }
  }
}
