// LangGraph's time travel: fork a thread from a past checkpoint with `graph.updateState`, as its
// docs show, on a MemorySaver thread of a given number of messages.
//
// Running 25,000 turns through the graph is out of reach (every checkpoint serialises the whole
// message list, so a thread grows quadratically), and so is appending them with `updateState`
// (over 2 minutes for 100,000 messages). The history is therefore written in bulk: one real
// turn through the graph, then two checkpoints of the thread are rewritten with
// `MemorySaver.put` to hold every turn but the last, and then every turn. The checkpoints are
// LangGraph's own (written by `updateState`, which gives them their ids and versions); only
// their messages are replaced.

import { AIMessage, HumanMessage, ToolMessage, type BaseMessage } from '@langchain/core/messages';
import type { RunnableConfig } from '@langchain/core/runnables';
import { MemorySaver } from '@langchain/langgraph';
import { buildGraph } from '../turns/langgraph-session.ts';
import { FINAL_ANSWER, TOOL_ARGS, TOOL_NAME, userMessage } from '../turns/turn-shape.ts';

export const MESSAGES_PER_TURN = 4;

export interface ForkableThread {
  /** The checkpoint just before the last turn: every turn but the last. */
  beforeLastTurn: RunnableConfig;
  /** The checkpoint just before the first turn: an empty state. */
  beforeFirstTurn: RunnableConfig;
  /** Forks the thread from `past`: a new checkpoint with `past`'s state, whose parent `past` is. */
  fork(past: RunnableConfig): Promise<RunnableConfig>;
  /** Messages in the latest state. */
  messageCount(): Promise<number>;
}

let threads = 0;

/** A thread of `length` messages: turns of a user message, tool call, tool result and answer. */
export async function buildThread(length: number): Promise<ForkableThread> {
  const checkpointer = new MemorySaver();
  const graph = buildGraph(checkpointer);
  const thread: RunnableConfig = { configurable: { thread_id: `rewind-${threads++}` } };
  const turns = Math.max(2, Math.round(length / MESSAGES_PER_TURN));

  await graph.invoke({ messages: [new HumanMessage(userMessage(0))] }, thread);
  let beforeFirstTurn: RunnableConfig | undefined;
  for await (const snapshot of graph.getStateHistory(thread)) beforeFirstTurn = snapshot.config;
  const firstTurn = (await graph.getState(thread)).values.messages;

  // Two checkpoints written while the state is small, then filled.
  const allButLast = await graph.updateState(thread, { messages: [] }, 'model');
  const all = await graph.updateState(thread, { messages: [] }, 'model');
  const middle: BaseMessage[] = [];
  for (let turn = 1; turn < turns - 1; turn++) middle.push(...turnMessages(turn));
  await fill(checkpointer, allButLast, [...firstTurn, ...middle]);
  await fill(checkpointer, all, [...firstTurn, ...middle, ...turnMessages(turns - 1)]);

  return {
    beforeLastTurn: allButLast,
    beforeFirstTurn: beforeFirstTurn!,
    fork: (past) => graph.updateState(past, { messages: [] }, 'model'),
    messageCount: async () => (await graph.getState(thread)).values.messages.length,
  };
}

/** Rewrites checkpoint `at` to hold `messages`, keeping its id, parent, metadata and versions. */
async function fill(checkpointer: MemorySaver, at: RunnableConfig, messages: BaseMessage[]) {
  const saved = await checkpointer.getTuple(at);
  if (!saved?.parentConfig) throw new Error('A checkpoint written by updateState has a parent');
  const checkpoint = {
    ...saved.checkpoint,
    channel_values: { ...saved.checkpoint.channel_values, messages },
  };
  await checkpointer.put(saved.parentConfig, checkpoint, saved.metadata!);
}

function turnMessages(turn: number): BaseMessage[] {
  const id = `call-bulk-${turn}`;
  return [
    new HumanMessage({ id: `human-${turn}`, content: userMessage(turn) }),
    new AIMessage({
      id: `ai-call-${turn}`,
      content: '',
      tool_calls: [{ id, name: TOOL_NAME, args: { ...TOOL_ARGS } }],
    }),
    new ToolMessage({
      id: `tool-${turn}`,
      content: JSON.stringify({ sum: 5 }),
      tool_call_id: id,
      name: TOOL_NAME,
    }),
    new AIMessage({ id: `ai-answer-${turn}`, content: FINAL_ANSWER }),
  ];
}
