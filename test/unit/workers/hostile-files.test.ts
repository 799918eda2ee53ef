// Hostile and malformed files, built by damaging the app's own exports of a session, a flow and an
// agent (issue 19). Each is refused with a message that names the problem, never a browser's, and
// the store is then exactly as it was; or it is accepted whole.

import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withoutArtifactPayloads } from '../../../src/core/artifact-payloads.ts';
import { parseSessionFile, type Event } from '../../../src/index.ts';
import { AppRuntime } from '../../../workers/app.ts';
import { inProcessLocks } from '../../../workers/runs/session-locks.ts';
import { freshDbName, rejectionOf } from '../../support/helpers.ts';
import { snakeFile } from '../../support/adk-snake-session.ts';
import { flowiseTriage } from '../../support/flowise-fixture.ts';
import { readFlowiseFile } from '../../../src/flows/flowise/import.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** A case: the damage done to the parsed export, or to its text. */
interface Case {
  name: string;
  damage: (file: Json, text: string) => string;
  /** The problem the refusal names; absent: the file is accepted whole. */
  refused?: RegExp;
  /** For an accepted file: what must hold of what was imported. */
  accepted?: (imported: unknown, text: string) => void | Promise<void>;
}

const RAW_BROWSER_MESSAGES =
  /Failed to execute|Maximum call stack|Cannot read propert|is not a function|DataCloneError|undefined is not/;

/** `text` with the JSON value `"@@HERE@@"` replaced by `raw` (JSON text made by hand). */
const put = (file: Json, at: (file: Json) => void, raw: string) => {
  at(file);
  return JSON.stringify(file).replace('"@@HERE@@"', raw);
};
const HERE = '@@HERE@@';
const deepJson = (levels: number) => `${'{"x":'.repeat(levels)}1${'}'.repeat(levels)}`;
const MB = 1024 * 1024;

/** Gives `record` an own `__proto__` key, as JSON.parse does for one in a file. */
const own = (record: Json, value: unknown) =>
  Object.defineProperty(record, '__proto__', {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });

/** Every record of every store of the database, Blobs as their size and type. */
async function dump(dbName: string): Promise<Record<string, unknown[]>> {
  const db = await new Promise<IDBDatabase>((resolve, reject) => {
    const request = indexedDB.open(dbName);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  const out: Record<string, unknown[]> = {};
  const names = [...db.objectStoreNames];
  const tx = db.transaction(names, 'readonly');
  await Promise.all(
    names.map(
      (name) =>
        new Promise<void>((resolve, reject) => {
          const request = tx.objectStore(name).getAll();
          request.onsuccess = () => {
            out[name] = request.result.map((record: Json) =>
              record.blob instanceof Blob
                ? { ...record, blob: { size: record.blob.size, type: record.blob.type } }
                : record,
            );
            resolve();
          };
          request.onerror = () => reject(request.error);
        }),
    ),
  );
  db.close();
  return out;
}

function open() {
  const dbName = freshDbName();
  const runtime = new AppRuntime({
    dbName,
    locks: inProcessLocks(),
    broadcast: () => undefined,
    timing: { thinkMs: 0, chunkDelayMs: 0 },
  });
  return { runtime, dbName };
}

/** Saves a flow file, or throws what the save refused it for (`Flow refused: …`). */
async function saveFlow(runtime: AppRuntime, text: string) {
  const result = await runtime.flows.save(text);
  if (result.saved) return result.saved;
  expect(result.problems.length).toBeGreaterThan(0);
  expect(result).not.toHaveProperty('saved');
  throw new Error(`Flow refused: ${result.problems.map((p) => p.message).join('; ')}`);
}

/** What the suite tried, for its closing line (the README's Reliability section quotes it). */
const tally = { tried: 0, refused: 0, accepted: 0 };
afterAll(() => {
  const anomalies = tally.tried - tally.refused - tally.accepted;
  console.log(
    `hostile files: ${tally.tried} tried, ${tally.refused} refused with our message and the store unchanged, ${tally.accepted} accepted whole, ${anomalies} anomalies`,
  );
});

/** Runs one case: the damaged file is refused as it says, with nothing changed, or accepted. */
async function check(
  dbName: string,
  base: string,
  { damage, refused, accepted }: Case,
  load: (text: string) => Promise<unknown>,
  prefix: RegExp,
) {
  tally.tried++;
  const text = damage(JSON.parse(base) as Json, base);
  const before = await dump(dbName);
  if (refused) {
    const error = await rejectionOf(load(text));
    expect(error.message).toMatch(prefix);
    expect(error.message).toMatch(refused);
    expect(error.message).not.toMatch(RAW_BROWSER_MESSAGES);
    expect(error.message.length).toBeLessThan(2000);
    expect(await dump(dbName)).toEqual(before);
    tally.refused++;
  } else {
    await accepted!(await load(text), text);
    tally.accepted++;
  }
}

describe('session files', () => {
  const { runtime, dbName } = open();
  let base: string;
  beforeAll(async () => {
    const { id } = await runtime.createSession();
    await runtime.runs.send(id, 'set color to red', () => undefined);
    await runtime.runs.send(id, 'save notes.txt as hello', () => undefined);
    base = (await runtime.exportSession(id)).json;
  });

  /** The imported session's stored events, which must be the file's (bytes aside). */
  const importedWhole = async (imported: unknown, text: string) => {
    const { id } = imported as { id: string };
    const stored = (await runtime.openSession(id)).events as Event[];
    const expected = parseSessionFile(text).events.map(withoutArtifactPayloads);
    expect(JSON.stringify(stored)).toBe(JSON.stringify(expected));
    return { id, stored };
  };

  const cases: Case[] = [
    { name: 'a null file', damage: () => 'null', refused: /the file is null, not a JSON object/ },
    { name: 'a list', damage: () => '[]', refused: /the file is a list, not a JSON object/ },
    { name: 'a number', damage: () => '42', refused: /the file is a number, not a JSON object/ },
    { name: 'a string', damage: () => '"x"', refused: /the file is a string/ },
    { name: 'an empty file', damage: () => '', refused: /not JSON/ },
    {
      name: 'a truncated file',
      damage: (_, text) => text.slice(0, text.length / 2),
      refused: /not JSON/,
    },
    {
      name: 'no events',
      damage: (file) => JSON.stringify({ ...file, events: 'none' }),
      refused: /"events" must be a list/,
    },
    {
      name: 'deep nesting in a tool response',
      damage: (file) =>
        put(
          file,
          (f) => (f.events[2].content.parts[0].functionResponse.response = HERE),
          deepJson(5000),
        ),
      refused:
        /events\[2\]\.content\.parts\[0\]\.functionResponse\.response\.x.*is nested more than 100 levels deep/,
    },
    {
      name: 'deep nesting in a field Trellis does not know',
      damage: (file) => put(file, (f) => (f.extra = HERE), deepJson(100_000)),
      refused: /extra\.x.*is nested more than 100 levels deep/,
    },
    {
      name: 'a 20 MB string in a message',
      damage: (file) => {
        file.events[0].content.parts[0].text = 'x'.repeat(20 * MB);
        return JSON.stringify(file);
      },
      refused: /events\[0\]\.content\.parts\[0\]\.text is a text of 20,971,520 characters/,
    },
    {
      name: 'a file over 64 MB',
      damage: (file) => JSON.stringify({ ...file, padding: ' '.repeat(65 * MB) }),
      refused: /the file is 65 MB long; the most Trellis reads is 64 MB/,
    },
    {
      name: 'a 1 MB title',
      damage: (file) => {
        file.events[0].customMetadata.trellis.session.title = 't'.repeat(MB);
        return JSON.stringify(file);
      },
      refused:
        /events\[0\]\.customMetadata\.trellis\.session\.title is 1,048,576 characters long; a title has at most 120/,
    },
    {
      name: 'a title that is not text',
      damage: (file) => {
        file.events[0].customMetadata.trellis.session.title = 7;
        return JSON.stringify(file);
      },
      refused: /events\[0\]\.customMetadata\.trellis\.session\.title must be text/,
    },
    {
      name: 'a 1 MB title in an older export',
      damage: (file) =>
        JSON.stringify({ ...file, trellis: { format: 'trellis-session', title: 't'.repeat(MB) } }),
      refused: /trellis\.title is 1,048,576 characters long; a title has at most 120/,
    },
    {
      name: 'a 1 MB event id',
      damage: (file) => {
        file.events[1].id = 'i'.repeat(MB);
        return JSON.stringify(file);
      },
      refused: /events\[1\]\.id is longer than 256 characters/,
    },
    {
      name: 'a lone surrogate in a message',
      damage: (file) => JSON.stringify(file).replace('set color to red', 'set color to \\ud800'),
      refused: /events\[0\]\.content\.parts\[0\]\.text is not valid Unicode text/,
    },
    {
      name: 'a lone surrogate in a state key',
      damage: (file) => JSON.stringify(file).replace('"color":"red"', '"\\udc00":"red"'),
      refused: /has a key that is not valid Unicode text/,
    },
    {
      name: 'the same event id twice',
      damage: (file) => {
        file.events[1].id = file.events[0].id;
        return JSON.stringify(file);
      },
      refused: /events\[1\]\.id ".*" appears twice/,
    },
    {
      name: 'a timestamp that is not a number',
      damage: (file) => {
        file.events[0].timestamp = 'yesterday';
        return JSON.stringify(file);
      },
      refused: /events\[0\]\.timestamp must be a number/,
    },
    {
      name: 'partial that is not a boolean',
      damage: (file) => {
        file.events[0].partial = 'yes';
        return JSON.stringify(file);
      },
      refused: /events\[0\]\.partial must be a boolean/,
    },
    {
      name: 'a stateDelta that is a list',
      damage: (file) => {
        file.events[0].actions.stateDelta = ['color'];
        return JSON.stringify(file);
      },
      refused: /events\[0\]\.actions\.stateDelta must be an object/,
    },
    {
      name: 'an artifact version of a billion',
      damage: (file) => {
        const saving = file.events.find((e: Json) => Object.keys(e.actions.artifactDelta).length);
        saving.actions.artifactDelta['notes.txt'] = 1e9;
        return JSON.stringify(file);
      },
      refused: /artifactDelta must map file names to versions \(whole numbers from 0 to 100,000\)/,
    },
    {
      name: 'artifact bytes that are not base64',
      damage: (file) => {
        const saving = file.events.find((e: Json) => e.customMetadata?.trellis?.artifacts);
        saving.customMetadata.trellis.artifacts['notes.txt'] = {
          inlineData: { mimeType: 'text/plain', data: 'not base64!' },
        };
        return JSON.stringify(file);
      },
      refused: /customMetadata\.trellis\.artifacts\["notes\.txt"\] needs inlineData\.data/,
    },
    {
      name: 'a rewind marker to an invocation not in the file',
      damage: (file) => {
        file.events.push({
          id: 'marker',
          invocationId: 'rewind',
          author: 'user',
          timestamp: 1_700_000_000_000,
          actions: { rewindBeforeInvocationId: 'elsewhere', stateDelta: { evil: 'x' } },
        });
        return JSON.stringify(file);
      },
      refused: /events\[\d+\] is a rewind marker to invocation "elsewhere", which is not before it/,
    },
    {
      name: 'a rewind marker to before the first turn carrying a state delta',
      damage: (file) => {
        file.events.push({
          id: 'marker',
          invocationId: 'rewind',
          author: 'user',
          timestamp: 1_700_000_000_000,
          actions: {
            rewindBeforeInvocationId: file.events[0].invocationId,
            stateDelta: { evil: 'x' },
          },
        });
        return JSON.stringify(file);
      },
      accepted: async (imported) => {
        const { id } = imported as { id: string };
        const opened = await runtime.openSession(id);
        expect(opened.state).toEqual({});
        expect(opened.events.at(-1)!.actions.stateDelta).toEqual({ color: null });
      },
    },
    {
      name: '__proto__ keys everywhere',
      damage: (file) => {
        own(file, { polluted: 1 });
        own(file.events[0], { e: 1 });
        own(file.events[0].actions, { a: 1 });
        own(file.events[0].actions.stateDelta, 'kept');
        own(file.events[0].content, { c: 1 });
        own(file.events[0].content.parts[0], { p: 1 });
        return JSON.stringify(file);
      },
      accepted: async (imported, text) => {
        const { id, stored } = await importedWhole(imported, text);
        expect(Object.hasOwn(stored[0]!, '__proto__')).toBe(true);
        expect(Object.getPrototypeOf(stored[0])).toBe(Object.prototype);
        expect(Object.hasOwn(stored[0]!.actions.stateDelta, '__proto__')).toBe(true);
        const { state } = await runtime.openSession(id);
        expect(Object.getOwnPropertyDescriptor(state, '__proto__')?.value).toBe('kept');
        expect(({} as Json).polluted).toBeUndefined();
      },
    },
    {
      name: 'invalid UTF-8, read as the browser reads a file',
      damage: (_, text) => {
        const bytes = new TextEncoder().encode(text);
        const at = text.indexOf('set color to red') + 4;
        const broken = new Uint8Array([...bytes.slice(0, at), 0xff, 0xfe, ...bytes.slice(at)]);
        return new TextDecoder().decode(broken); // as File.text(): U+FFFD for each bad byte
      },
      accepted: async (imported, text) => {
        const { stored } = await importedWhole(imported, text);
        expect(stored[0]!.content!.parts[0]!.text).toBe('set \ufffd\ufffdcolor to red');
      },
    },
  ];

  it.each(cases)('$name', (testCase) =>
    check(
      dbName,
      base,
      testCase,
      (text) => runtime.importSession(text),
      /^This is not a session file Trellis can import: /,
    ),
  );
});

describe('flow files', () => {
  const { runtime, dbName } = open();
  let base: string;
  beforeAll(async () => {
    const [example] = (await runtime.flows.list()).filter((flow) => flow.readOnly);
    const copy = await runtime.flows.duplicate(example!.id);
    base = JSON.stringify(copy.flow, null, 2);
    await runtime.flows.remove(copy.id);
  });

  /** Saves the flow: its problems as one refusal, like the editor shows them. */
  const save = (text: string) => saveFlow(runtime, text);
  const renamed = (file: Json) => ({
    ...file,
    name: `${file.name}-${crypto.randomUUID().slice(0, 6)}`,
  });

  const cases: Case[] = [
    {
      name: 'a null file',
      damage: () => 'null',
      refused: /a flow must be a JSON object, not null/,
    },
    { name: 'a list', damage: () => '[1]', refused: /a flow must be a JSON object, not a list/ },
    { name: 'a truncated file', damage: (_, text) => text.slice(0, 50), refused: /JSON: / },
    {
      name: 'a name of 5 MB',
      damage: (file) => JSON.stringify({ ...file, name: 'n'.repeat(5 * MB) }),
      refused: /the flow is 5 MB long; the most Trellis reads is 1 MB/,
    },
    {
      name: 'a name of 1000 characters',
      damage: (file) => JSON.stringify({ ...file, name: 'n'.repeat(1000) }),
      refused: /the flow's name is 1000 characters long; a name has at most 100/,
    },
    {
      name: 'a node id of 1000 characters',
      damage: (file) => {
        file.nodes[1].id = 'a'.repeat(1000);
        return JSON.stringify(renamed(file));
      },
      refused: /node #2 has an id of 1000 characters; an id has at most 64/,
    },
    {
      name: 'deep nesting in a state default',
      damage: (file) =>
        put(
          renamed(file),
          (f) => (f.state = [{ key: 'k', operation: 'replace', default: HERE }]),
          deepJson(5000),
        ),
      refused: /state\[0\]\.default\.x.*is nested more than 100 levels deep/,
    },
    {
      name: 'a lone surrogate in an instruction',
      damage: (file) => {
        const node = file.nodes.find((n: Json) => typeof n.instruction === 'string');
        node.instruction = `${node.instruction} \ud800`;
        return JSON.stringify(renamed(file));
      },
      refused: /instruction is not valid Unicode text/,
    },
    {
      name: 'two nodes with one id',
      damage: (file) => {
        file.nodes[2].id = file.nodes[1].id;
        return JSON.stringify(renamed(file));
      },
      refused: /is used by more than one node/,
    },
    {
      name: 'nodes that are not a list',
      damage: (file) => JSON.stringify({ ...renamed(file), nodes: 'start' }),
      refused: /the flow needs "nodes" \(an array\)/,
    },
    {
      name: 'a label that is not text',
      damage: (file) => {
        file.nodes[0].label = { text: 'x' };
        return JSON.stringify(renamed(file));
      },
      refused: /the label must be a string/,
    },
    {
      name: '501 nodes',
      damage: (file) =>
        JSON.stringify({
          ...renamed(file),
          nodes: [
            ...file.nodes,
            ...Array.from({ length: 501 }, (_, i) => ({ id: `n${i}`, type: 'end' })),
          ],
        }),
      refused: /a flow has at most 500/,
    },
    {
      name: 'a regex with a backreference',
      damage: (file) =>
        JSON.stringify({
          ...renamed(file),
          nodes: [
            ...file.nodes,
            {
              id: 'regex_check',
              type: 'condition',
              rules: [
                { variable: '{{question}}', operation: 'regex', value: '(a)\\1', output: 'x' },
              ],
            },
          ],
        }),
      refused: /rule 1 has a regex RE2 cannot run/,
    },
    {
      name: '__proto__ keys in the flow and a node',
      damage: (file) => {
        own(file, { polluted: 1 });
        own(file.nodes[0], { n: 1 });
        return JSON.stringify(renamed(file));
      },
      accepted: async (saved) => {
        const { flow } = saved as { flow: Json };
        expect(Object.hasOwn(flow, '__proto__')).toBe(true);
        expect(Object.hasOwn(flow.nodes[0], '__proto__')).toBe(true);
        expect(({} as Json).polluted).toBeUndefined();
      },
    },
  ];

  it.each(cases)('$name', (testCase) => check(dbName, base, testCase, save, /^Flow refused: /));

  it('checks a hostile flow without throwing, and sends nothing of it back to draw', async () => {
    const deep = `{"name": "d", "nodes": [], "edges": [], "x": ${deepJson(10_000)}}`;
    const checked = await runtime.flows.check(deep);
    expect(checked.flow).toBeUndefined();
    expect(checked.problems[0]!.message).toMatch(/nested more than 100 levels deep/);
    expect((await runtime.flows.check('null')).problems[0]!.message).toMatch(/not null/);
  });
});

describe('agent files', () => {
  const { runtime, dbName } = open();
  let base: string;
  beforeAll(async () => {
    const provider = await runtime.providers.save({
      kind: 'openai-compatible',
      name: 'Local',
      baseUrl: 'http://127.0.0.1:9/v1',
      defaultModel: 'small',
      apiKey: 'sk-test-0000',
    });
    const helper = await runtime.agentSpecs.save({
      name: 'helper',
      description: 'Helps.',
      providerId: provider.id,
      model: '',
      instruction: 'Help.',
      tools: [],
      subAgentIds: [],
      resumable: true,
    });
    const lead = await runtime.agentSpecs.save({
      name: 'lead',
      description: 'Leads.',
      providerId: provider.id,
      model: '',
      instruction: 'Lead.',
      tools: ['calculator'],
      subAgentIds: [helper.saved!.id],
      resumable: true,
    });
    base = (await runtime.agentSpecs.exportFile(lead.saved!.id)).json;
  });

  const cases: Case[] = [
    { name: 'a null file', damage: () => 'null', refused: /the file is null, not a JSON object/ },
    { name: 'a truncated file', damage: (_, text) => text.slice(0, -3), refused: /it is not JSON/ },
    {
      name: 'deep nesting',
      damage: (file) => put(file, (f) => (f.agents[0].extra = HERE), deepJson(5000)),
      refused: /agents\[0\]\.extra\.x.*is nested more than 100 levels deep/,
    },
    {
      name: 'a name of 5 MB',
      damage: (file) => {
        file.agents[0].name = 'n'.repeat(5 * MB);
        return JSON.stringify(file);
      },
      refused: /the file is 5 MB long/,
    },
    {
      name: 'a name of 1000 characters',
      damage: (file) => {
        file.agents[0].name = 'n'.repeat(1000);
        return JSON.stringify(file);
      },
      refused: /agents\[0\] \(n{64}…\): name is longer than 64 characters/,
    },
    {
      name: 'a description of 5000 characters',
      damage: (file) => {
        file.agents[1].description = 'd'.repeat(5000);
        return JSON.stringify(file);
      },
      refused: /description is longer than 1000 characters/,
    },
    {
      name: 'two agents with one id',
      damage: (file) => {
        file.agents[1].id = file.agents[0].id;
        return JSON.stringify(file);
      },
      refused: /two agents have the same id|sub-agent/,
    },
    {
      name: 'a lone surrogate',
      damage: (file) => JSON.stringify(file).replace('Help.', 'Help \\udfff'),
      refused: /agents\[1\]\.instruction is not valid Unicode text/,
    },
    {
      name: 'tools that are not a list',
      damage: (file) => {
        file.agents[0].tools = 'calculator';
        return JSON.stringify(file);
      },
      refused: /tools must be a list of names/,
    },
    {
      name: 'a provider id of 1000 characters',
      damage: (file) => {
        file.providers[0].id = 'p'.repeat(1000);
        return JSON.stringify(file);
      },
      refused: /providers\[0\] has an id longer than 100 characters/,
    },
    {
      name: '101 agents',
      damage: (file) =>
        JSON.stringify({
          ...file,
          agents: [
            ...file.agents,
            ...Array.from({ length: 101 }, (_, i) => ({ ...file.agents[1], id: `x${i}` })),
          ],
        }),
      refused: /it holds more than 100 agents/,
    },
    {
      name: '__proto__ keys',
      damage: (_, text) =>
        text
          .replace('{', '{"__proto__": {"polluted": 1},')
          .replace('"agents": [\n    {', '"agents": [{"__proto__": {"a": 1},'),
      accepted: (result) => {
        const { imported } = result as { imported: { name: string }[] };
        expect(imported.map((agent) => agent.name).sort()).toEqual(['helper_2', 'lead_2']);
        expect(({} as Json).polluted).toBeUndefined();
      },
    },
  ];

  it.each(cases)('$name', (testCase) =>
    check(
      dbName,
      base,
      testCase,
      (text) => runtime.agentSpecs.importFile(text),
      /^This is not an agent file Trellis can import: /,
    ),
  );
});

describe('ADK session files in snake_case (as ADK Python writes them)', () => {
  const { runtime, dbName } = open();
  const base = JSON.stringify(snakeFile);
  const event = (file: Json, i: number) => file.events[i] as Json;
  beforeAll(() => runtime.listSessions()); // the database, made before the first dump

  const cases: Case[] = [
    {
      name: 'a truncated file',
      damage: (_, text) => text.slice(0, text.length / 2),
      refused: /not JSON/,
    },
    {
      name: 'an invocation_id that is a number',
      damage: (file) => ((event(file, 0).invocation_id = 7), JSON.stringify(file)),
      refused: /events\[0\]\.invocation_id/,
    },
    {
      name: 'a state_delta that is a list',
      damage: (file) => ((event(file, 2).actions.state_delta = [1]), JSON.stringify(file)),
      refused: /events\[2\]\.actions\.state_delta/,
    },
    {
      name: 'a timestamp that is text',
      damage: (file) => ((event(file, 1).timestamp = 'yesterday'), JSON.stringify(file)),
      refused: /events\[1\]\.timestamp/,
    },
    {
      name: 'one event spelled in camelCase among snake_case ones',
      damage: (file) => {
        const e = event(file, 3);
        e.invocationId = e.invocation_id;
        delete e.invocation_id;
        return JSON.stringify(file);
      },
      // Read whole: the event keeps its invocation under either spelling.
      accepted: async (imported) => {
        const { id } = imported as { id: string };
        const events = (await runtime.openSession(id)).events as Event[];
        expect(events.slice(-6).map((e) => e.invocationId)).toEqual([
          'inv-1',
          'inv-1',
          'inv-1',
          'inv-1',
          'inv-2',
          'inv-3',
        ]);
      },
    },
    {
      name: 'a rewind marker to an invocation the file does not have',
      damage: (file) => (
        (event(file, 5).actions.rewind_before_invocation_id = 'nowhere'),
        JSON.stringify(file)
      ),
      refused: /nowhere/,
    },
    {
      name: 'a 20 MB string in a message',
      damage: (file) => (
        (event(file, 0).content.parts[0].text = 'x'.repeat(20 * MB)),
        JSON.stringify(file)
      ),
      refused: /events\[0\]\.content\.parts\[0\]\.text is a text of 20,971,520 characters/,
    },
    {
      name: 'deep nesting in a state_delta',
      damage: (file) =>
        put(file, (f) => ((f.events[2] as Json).actions.state_delta.deep = HERE), deepJson(5000)),
      refused: /is nested more than 100 levels deep/,
    },
    {
      name: '__proto__ keys in state and a state_delta',
      damage: (file) => {
        own(file.state, { polluted: 1 });
        own(event(file, 2).actions.state_delta, { polluted: 2 });
        return JSON.stringify(file);
      },
      accepted: async (imported) => {
        const { id } = imported as { id: string };
        const opened = await runtime.openSessionSummary(id);
        expect(Object.hasOwn(opened.state, '__proto__')).toBe(true);
        expect(({} as Json).polluted).toBeUndefined();
      },
    },
  ];

  it.each(cases)('$name', (testCase) =>
    check(
      dbName,
      base,
      testCase,
      (text) => runtime.importSession(text),
      /^This is not a session file Trellis can import: /,
    ),
  );
});

describe('Flowise exports', () => {
  const { runtime, dbName } = open();
  const base = JSON.stringify(flowiseTriage);
  beforeAll(() => runtime.listSessions());
  const node = (file: Json, id: string) =>
    (file.nodes as Json[]).find((candidate) => candidate.id === id) as Json;
  /** What the Flows view does with a picked Flowise file: read it, import it, save the flow. */
  const load = async (text: string) => {
    // A name of its own each time: a flow accepted earlier keeps its name.
    const { flow } = readFlowiseFile(text, `triage-${crypto.randomUUID().slice(0, 6)}.json`);
    return saveFlow(runtime, JSON.stringify(flow));
  };

  const cases: Case[] = [
    { name: 'a truncated file', damage: (_, t) => t.slice(0, t.length / 2), refused: /not JSON/ },
    { name: 'a null file', damage: () => 'null', refused: /needs "nodes" and "edges" lists/ },
    {
      name: 'nodes that are not a list',
      damage: (file) => JSON.stringify({ ...file, nodes: {} }),
      refused: /needs "nodes" and "edges" lists/,
    },
    {
      name: 'a Start node whose data is null',
      damage: (file) => ((node(file, 'seqStart_0').data = null), JSON.stringify(file)),
      refused: /Sequential Agents Start node \(seqStart\)/,
    },
    {
      name: 'edges whose ends and handles are numbers',
      damage: (file) => {
        for (const edge of file.edges as Json[]) ((edge.targetHandle = 1), (edge.source = 2));
        return JSON.stringify(file);
      },
      refused: /./,
    },
    {
      name: 'inputs that are text, not a form',
      damage: (file) => ((node(file, 'seqAgent_0').data.inputs = 'x'), JSON.stringify(file)),
      // The flow comes over, and the report says the form was left empty.
      accepted: (_, text) => {
        const { report } = readFlowiseFile(text, 'triage.json');
        expect(report).toContainEqual(
          expect.objectContaining({
            nodeId: 'agent', // no name to call it by: its type,
            message: expect.stringMatching(/its form could not be read/),
          }),
        );
      },
    },
    {
      name: 'a 20 MB system prompt',
      damage: (file) => (
        (node(file, 'seqAgent_0').data.inputs.systemMessagePrompt = 'x'.repeat(20 * MB)),
        JSON.stringify(file)
      ),
      refused: /20 MB long; the most Trellis reads is 16 MB/,
    },
    {
      name: 'a 2 MB system prompt',
      damage: (file) => (
        (node(file, 'seqAgent_0').data.inputs.systemMessagePrompt = 'x'.repeat(2 * MB)),
        JSON.stringify(file)
      ),
      refused: /systemMessagePrompt is a text of 2,097,152 characters/,
    },
    {
      name: 'deep nesting in a form',
      damage: (file) =>
        put(file, (f) => (node(f, 'seqAgent_0').data.inputs.deep = HERE), deepJson(5000)),
      refused: /is nested more than 100 levels deep/,
    },
    {
      name: 'a lone surrogate in a label',
      damage: (_, text) => text.replace('"Start"', '"St\\ud800art"'),
      refused: /./,
    },
    {
      name: '__proto__ keys in a form',
      damage: (file) => (
        own(node(file, 'seqAgent_0').data.inputs, { polluted: 1 }),
        JSON.stringify(file)
      ),
      accepted: () => expect(({} as Json).polluted).toBeUndefined(),
    },
    {
      name: 'two nodes with one id',
      damage: (file) => {
        const agent = node(file, 'seqAgent_0');
        (file.nodes as Json[]).push(JSON.parse(JSON.stringify(agent)));
        return JSON.stringify(file);
      },
      refused: /./,
    },
  ];

  it.each(cases)('$name', (testCase) =>
    check(
      dbName,
      base,
      testCase,
      load,
      /^(This Flowise file|This Flowise flow|This is not a Flowise flow|Flow refused: )/,
    ),
  );
});
