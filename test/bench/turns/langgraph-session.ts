// @langchain/langgraph: the same turn as a StateGraph over a messages state, with a model node
// answering at once, a ToolNode, and a MemorySaver checkpointer; one invoke per turn.

import { AIMessage, HumanMessage } from '@langchain/core/messages';
import { tool } from '@langchain/core/tools';
import { END, MemorySaver, MessagesAnnotation, START, StateGraph } from '@langchain/langgraph';
import { ToolNode, toolsCondition } from '@langchain/langgraph/prebuilt';
import { z } from 'zod';
import {
  FINAL_ANSWER,
  TOOL_ARGS,
  TOOL_DESCRIPTION,
  TOOL_NAME,
  add,
  userMessage,
  type Contender,
} from './turn-shape.ts';

/** The compiled graph: model → (tool call?) tools → model → end. */
export function buildGraph(checkpointer = new MemorySaver()) {
  const addTool = tool(add, {
    name: TOOL_NAME,
    description: TOOL_DESCRIPTION,
    schema: z.object({ a: z.number(), b: z.number() }),
  });
  let calls = 0;
  const model = ({ messages }: typeof MessagesAnnotation.State) => {
    const answered = messages.at(-1)?.getType() === 'tool';
    return {
      messages: [
        answered
          ? new AIMessage(FINAL_ANSWER)
          : new AIMessage({
              content: '',
              tool_calls: [{ id: `call-${calls++}`, name: TOOL_NAME, args: { ...TOOL_ARGS } }],
            }),
      ],
    };
  };
  return new StateGraph(MessagesAnnotation)
    .addNode('model', model)
    .addNode('tools', new ToolNode([addTool]))
    .addEdge(START, 'model')
    .addConditionalEdges('model', toolsCondition, ['tools', END])
    .addEdge('tools', 'model')
    .compile({ checkpointer });
}

let threads = 0;

export const langGraphMemorySaver: Contender = {
  name: '@langchain/langgraph MemorySaver',
  async open() {
    const graph = buildGraph();
    const config = { configurable: { thread_id: `bench-${threads++}` } };
    return {
      async turn(turn) {
        const { messages } = await graph.invoke(
          { messages: [new HumanMessage(userMessage(turn))] },
          config,
        );
        return messages.at(-1)?.text ?? '';
      },
    };
  },
};
