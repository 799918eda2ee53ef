// pdf.js's parser module has no types of its own: pdf-text.ts only hands it to pdf.js (as
// `globalThis.pdfjsWorker`), which reads its `WorkerMessageHandler`.
declare module 'pdfjs-dist/build/pdf.worker.mjs' {
  export const WorkerMessageHandler: unknown;
}
