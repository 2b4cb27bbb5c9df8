// Pure module: the cap on the tool text a check keeps (MAX_TOOLS_JSON_BYTES). A server may send three
// 8 MB pages; what is stored per server and day is cut, on tool boundaries, to the cap, and the cut is
// described so the findings can say so. The kept text is still the raw text the server sent.
import { MAX_TOOLS_JSON_BYTES } from './constants.js';
import { arrayElements } from './json-span.js';

/** How a tool list was cut to the text cap: tools and UTF-8 bytes before and after, and the cap applied. */
export interface ToolTextCut {
  readonly listedTools: number;
  readonly keptTools: number;
  /** UTF-8 bytes of the whole tools array text before the cut. */
  readonly listedBytes: number;
  /** UTF-8 bytes of the kept array text (`[`, the kept tools joined by `,`, `]`). */
  readonly keptBytes: number;
  readonly capBytes: number;
}

/** A tool list within the text cap: the kept tools, their raw array text, and the cut (null when nothing was cut). */
export interface CappedToolText {
  readonly tools: unknown[];
  readonly toolsJson: string;
  readonly cut: ToolTextCut | null;
}

/** UTF-8 bytes of `text.slice(start, end)`, counted without encoding it. */
function utf8Bytes(text: string, start = 0, end = text.length): number {
  let bytes = 0;
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < end && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 4; // A surrogate pair is one code point of four bytes.
      i++;
    } else bytes += 3;
  }
  return bytes;
}

/**
 * Keeps the tools of a list, in order, while their array text stays within `capBytes` UTF-8 bytes.
 * `toolsJson` must be the raw JSON text of exactly the `tools` array (as `ProbeResult.toolsJson` is);
 * the kept text is made of the raw tool texts, joined by `,` inside `[` `]`. A list within the cap is
 * returned unchanged (`cut` null). If the text does not split into as many elements as `tools` has, no
 * tool can be matched to its text and none is kept. Pure; never throws for any text.
 *
 * @example
 * const kept = capToolText(result.tools, result.toolsJson ?? '[]');
 * if (kept.cut !== null) console.log(`kept ${kept.cut.keptTools} of ${kept.cut.listedTools} tools`);
 */
export function capToolText(
  tools: readonly unknown[],
  toolsJson: string,
  capBytes: number = MAX_TOOLS_JSON_BYTES,
): CappedToolText {
  const listedBytes = utf8Bytes(toolsJson);
  if (listedBytes <= capBytes) return { tools: [...tools], toolsJson, cut: null };
  const start = toolsJson.search(/\S/);
  const spans = start === -1 ? [] : arrayElements(toolsJson, start);
  const aligned = spans.length === tools.length;
  const pieces: string[] = [];
  let keptBytes = 2; // the brackets
  if (aligned) {
    for (const span of spans) {
      const bytes = utf8Bytes(toolsJson, span.start, span.end) + (pieces.length > 0 ? 1 : 0);
      if (keptBytes + bytes > capBytes) break;
      keptBytes += bytes;
      pieces.push(toolsJson.slice(span.start, span.end));
    }
  }
  return {
    tools: tools.slice(0, pieces.length),
    toolsJson: `[${pieces.join(',')}]`,
    cut: { listedTools: tools.length, keptTools: pieces.length, listedBytes, keptBytes, capBytes },
  };
}
