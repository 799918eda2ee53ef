// The only globals src/core may use: they exist in browsers, workers and Node alike. Checked by
// tsconfig.core.json, which compiles src/core without the DOM library, so that any other global
// of the browser (the page, its storage, its messaging) fails the typecheck.

declare const crypto: { randomUUID(): string };

declare class TextEncoder {
  encode(input?: string): Uint8Array;
}

declare class TextDecoder {
  decode(input?: Uint8Array): string;
}
