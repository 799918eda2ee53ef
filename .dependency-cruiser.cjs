// What may import what: the layer table of docs/architecture.md ("What may import what"), checked
// by dependency-cruiser on every import, type-only ones included. test/unit/architecture.test.ts
// runs it (npm test), so an import that breaks a rule fails CI.
//
// Layers: src/core (pure) → src/store (IndexedDB) → the library rooms (agents, context, plugins, tools, models,
// runner, flows, workflow, tracing, remote, demos, knowledge) → workers/ (the app's runtime); src/ui (the
// page) reaches the worker only through src/ui/workbench/runtime-client.ts.

const ROOMS =
  '^src/(agents|context|plugins|tools|models|runner|flows|workflow|tracing|remote|demos|knowledge)/';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment:
        'Imports run one way: a circle (type-only ones too) means two files that are one, or a type in the wrong place.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'core-is-pure',
      comment:
        'src/core imports only src/core: no package (idb, comlink, preact), no other layer. It compiles without DOM types (tsconfig.core.json).',
      severity: 'error',
      from: { path: '^src/core/' },
      to: { pathNot: '^src/core/' },
    },
    {
      name: 'store-below-the-rooms',
      comment:
        "src/store knows the library rooms by their types only; two exceptions: the IndexedDB trace service extends tracing's BaseTraceService as the session services extend their own base, and the IndexedDB knowledge storage keeps the knowledge storage contract with its shared checks.",
      severity: 'error',
      from: {
        path: '^src/store/',
        pathNot: '^src/store/(indexeddb-trace-service|knowledge-store)\\.ts$',
      },
      to: { path: ROOMS, dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'library-not-app',
      comment:
        'The library (src/core, src/store and the rooms, exported by src/index.ts) runs in Node and in any page: it imports neither the worker nor the page.',
      severity: 'error',
      from: {
        path: '^src/(core|store|agents|context|plugins|tools|models|runner|flows|workflow|tracing|remote|demos|knowledge)/|^src/index\\.ts$',
      },
      to: { path: '^(workers/|src/ui/|src/main\\.tsx$|src/sw\\.ts$)' },
    },
    {
      name: 'worker-not-page',
      comment: 'The worker imports nothing of the page.',
      severity: 'error',
      from: { path: '^workers/' },
      to: { path: '^(src/ui/|src/main\\.tsx$)' },
    },
    {
      name: 'page-not-store',
      comment:
        'The page never opens IndexedDB itself: sessions, events and state are read and written by the worker.',
      severity: 'error',
      from: { path: '^(src/ui/|src/main\\.tsx$)' },
      to: { path: '^src/store/' },
    },
    {
      name: 'page-not-runtime',
      comment:
        "The page does not run agents: it may use the rooms' types and pure helpers, never the runner (runs are the worker's).",
      severity: 'error',
      from: { path: '^(src/ui/|src/main\\.tsx$)' },
      to: { path: '^src/runner/' },
    },
    {
      name: 'page-reaches-worker-through-runtime-client',
      comment:
        'The page reaches the worker only through src/ui/workbench/runtime-client.ts (Comlink, and RuntimeApi as a type); the rest of the page may import workers/protocol.ts, the data that crosses the boundary.',
      severity: 'error',
      from: {
        path: '^(src/ui/|src/main\\.tsx$)',
        pathNot: '^src/ui/workbench/runtime-client\\.ts$',
      },
      to: { path: '^workers/', pathNot: '^workers/protocol\\.ts$' },
    },
    {
      name: 'runtime-client-types-only',
      comment:
        'runtime-client.ts imports the worker as a type: the worker itself is loaded by new Worker().',
      severity: 'error',
      from: { path: '^src/ui/workbench/runtime-client\\.ts$' },
      to: {
        path: '^workers/',
        pathNot: '^workers/protocol\\.ts$',
        dependencyTypesNot: ['type-only'],
      },
    },
    {
      name: 'only-store-imports-idb',
      comment: 'Only src/store touches IndexedDB (the library idb).',
      severity: 'error',
      from: { pathNot: '^src/store/' },
      to: { path: '(^|/)node_modules/idb/' },
    },
    {
      name: 'comlink-at-the-boundary',
      comment:
        "Comlink is the worker boundary: the worker's entry (workers/runtime.ts) exposes the runtime, the page's runtime client wraps it.",
      severity: 'error',
      from: {
        pathNot: '^(workers/runtime\\.ts|src/ui/workbench/(runtime-client|workbench-state)\\.ts)$',
      },
      to: { path: '(^|/)node_modules/comlink/' },
    },
    {
      name: 'not-to-tests',
      comment: 'Shipped code never imports the tests.',
      severity: 'error',
      from: { path: '^(src|workers)/' },
      to: { path: '^test/' },
    },
  ],
  options: {
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: '(^|/)node_modules/' },
    exclude: { path: '\\.d\\.ts$' },
    enhancedResolveOptions: {
      extensions: ['.ts', '.tsx', '.js', '.mjs'],
      conditionNames: ['import', 'browser', 'default'],
      mainFields: ['module', 'browser', 'main'],
    },
  },
};
