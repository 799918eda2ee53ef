// ADK 2.0 workflows (issue 30): the cost of a node run in memory, Trellis's Workflow against
// @google/adk 2.0's, on the same 5-node graph of the same functions (START → a → b → c → d → e,
// each returning a short string), one turn per message, in sessions of 100 and 1,000 turns; and
// whether the cost stays flat as the session grows (the last 10% of turns ÷ the first 10%).

import * as adk from '@google/adk';
import { describe, expect, it } from 'vitest';
import * as trellis from '../../src/index.ts';
import { collectGarbage, pairedRatio, summarize } from './measure.ts';
import { publishNodeResults } from './report.ts';
import { figure, type BenchResult } from './results-file.ts';

const GROUP = 'workflow node runs';
const NODES = 5;
const LENGTHS = [100, 1_000];
const RUNS = 3;
/** A 1,000-turn session of @google/adk takes a minute or more here (it slows as it grows): one run. */
const ADK_RUNS_AT_1000 = 1;
const MAX_RATIO = 0.2;
const MAX_GROWTH = 1.2;

interface Contender {
  name: string;
  open(): Promise<(turn: number) => Promise<number>>;
}

/** The graph's functions: each node's output is a short string. */
function functions() {
  return ['a', 'b', 'c', 'd', 'e'].map(
    (name) =>
      ({ [name]: (_ctx: unknown, input: unknown) => `${name}:${String(input).length}` })[name]!,
  );
}

const message = (turn: number) => ({ role: 'user' as const, parts: [{ text: `turn ${turn}` }] });

const trellisInMemory: Contender = {
  name: 'Trellis Workflow, in memory',
  async open() {
    const workflow = new trellis.Workflow({ name: 'five', edges: [['START', ...functions()]] });
    const runner = new trellis.InMemoryRunner({ agent: workflow, appName: 'bench' });
    const { id } = await runner.sessionService.createSession({ appName: 'bench', userId: 'u' });
    return async (turn) => {
      let outputs = 0;
      for await (const event of runner.runAsync({
        userId: 'u',
        sessionId: id,
        newMessage: message(turn),
      }))
        if (event.output !== undefined) outputs++;
      return outputs;
    };
  },
};

const adkInMemory: Contender = {
  name: '@google/adk 2.0 Workflow, in memory',
  async open() {
    const workflow = new adk.Workflow({
      name: 'five',
      edges: [['START', ...functions()] as never],
    });
    const runner = new adk.InMemoryRunner({ agent: workflow as never, appName: 'bench' });
    const { id } = await runner.sessionService.createSession({ appName: 'bench', userId: 'u' });
    return async (turn) => {
      let outputs = 0;
      for await (const event of runner.runAsync({
        userId: 'u',
        sessionId: id,
        newMessage: message(turn),
      }))
        if ((event as { output?: unknown }).output !== undefined) outputs++;
      return outputs;
    };
  },
};

interface Run {
  /** ms per node run over the whole session, its first 10% of turns and its last 10%. */
  whole: number;
  first: number;
  last: number;
}

async function run(contender: Contender, turns: number): Promise<Run> {
  const turn = await contender.open();
  collectGarbage();
  const tenth = Math.max(1, Math.round(turns / 10));
  const times: number[] = [];
  for (let i = 0; i < turns; i++) {
    const start = performance.now();
    await turn(i);
    times.push(performance.now() - start);
  }
  const perNode = (list: number[]) => list.reduce((a, b) => a + b, 0) / list.length / NODES;
  return {
    whole: perNode(times),
    first: perNode(times.slice(0, tenth)),
    last: perNode(times.slice(-tenth)),
  };
}

describe('workflow node runs', () => {
  it('both run the same graph: five outputs a turn', async () => {
    for (const contender of [trellisInMemory, adkInMemory]) {
      const turn = await contender.open();
      expect([await turn(0), await turn(1)], contender.name).toEqual([NODES, NODES]);
    }
  });

  it('per node run, at 100 and 1,000 turns a session', { timeout: 900_000 }, async () => {
    await run(trellisInMemory, 50); // warm-up, not measured
    await run(adkInMemory, 20);
    const results: BenchResult[] = [];
    for (const turns of LENGTHS) {
      const ours: Run[] = [];
      const theirs: Run[] = [];
      const adkRuns = turns >= 1_000 ? ADK_RUNS_AT_1000 : RUNS;
      for (let round = 0; round < RUNS; round++) {
        // Side by side, the order turned round by round.
        const pair = round % 2 === 0 ? ['t', 'a'] : ['a', 't'];
        for (const who of pair) {
          if (who === 't') ours.push(await run(trellisInMemory, turns));
          else if (theirs.length < adkRuns) theirs.push(await run(adkInMemory, turns));
        }
      }
      const params = { turns, measured: 'ms per node run, whole session' };
      const mine = ours.map((r) => r.whole);
      const peer = theirs.map((r) => r.whole);
      const ratio = pairedRatio(mine.slice(0, peer.length), peer);
      results.push(
        figure(GROUP, trellisInMemory.name, params, 'ms', summarize(mine), {
          ratio: { vs: adkInMemory.name, ...ratio },
          ...(turns === 1_000
            ? {
                target: {
                  text: `≤ ${MAX_RATIO}× @google/adk 2.0's per node run at 1,000 turns`,
                  met: ratio.median <= MAX_RATIO,
                },
              }
            : {}),
        }),
        figure(GROUP, adkInMemory.name, params, 'ms', summarize(peer), {
          ...(peer.length < RUNS
            ? { note: `${peer.length} run: a 1,000-turn session takes about 100 s` }
            : {}),
        }),
      );
      for (const [contender, runs] of [
        [trellisInMemory, ours],
        [adkInMemory, theirs],
      ] as const) {
        const growth = summarize(runs.map((r) => r.last / r.first));
        results.push(
          figure(
            GROUP,
            contender.name,
            { turns, measured: 'growth: last 10% of turns ÷ first 10%' },
            '×',
            growth,
            contender === trellisInMemory && turns === 1_000
              ? {
                  target: {
                    text: `flat in session length (≤ ${MAX_GROWTH}×)`,
                    met: growth.median <= MAX_GROWTH,
                  },
                }
              : {},
          ),
        );
      }
    }
    await publishNodeResults(GROUP, results);
    expect(results.length).toBeGreaterThan(0);
  });
});
