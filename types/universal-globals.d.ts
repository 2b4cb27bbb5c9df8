// The few globals that the pure packages may use although ES2022's lib does not declare them. The pure packages
// compile their src/ with `lib: ["ES2022"]` and `types: []` (tsconfig.pure.json), so a Node or browser API there is
// a compile error; what this file declares is present in every runtime they promise to run on (Node 20+, current
// browsers, Deno, Bun, edge workers), with the shape those runtimes share. Add a global here only when that holds.

/** The WHATWG Encoding API's UTF-8 encoder. */
declare class TextEncoder {
  readonly encoding: string;
  encode(input?: string): Uint8Array;
  encodeInto(source: string, destination: Uint8Array): { read: number; written: number };
}

/** The WHATWG Encoding API's decoder; `fatal: true` throws on bytes that are not valid in the encoding. */
declare class TextDecoder {
  constructor(label?: string, options?: { fatal?: boolean; ignoreBOM?: boolean });
  readonly encoding: string;
  readonly fatal: boolean;
  readonly ignoreBOM: boolean;
  decode(input?: ArrayBufferView | ArrayBuffer, options?: { stream?: boolean }): string;
}
