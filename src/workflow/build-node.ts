// What may stand in a graph, and the node each thing becomes (ADK 2.0's `node()`): a node as it
// is, an agent as an AgentNode, a tool as a ToolNode, a plain function as a FunctionNode named
// after itself.

import { BaseAgent } from '../agents/base-agent.ts';
import { InvalidRequestError } from '../core/errors.ts';
import { BaseTool } from '../tools/base-tool.ts';
import { AgentNode, ToolNode } from './agent-nodes.ts';
import {
  FunctionNode,
  START,
  isGraphNode,
  type FunctionNodeHandler,
  type GraphNode,
} from './nodes.ts';
import type { BaseNodeOptions } from './nodes.ts';

/** What `node()` may set on the node it makes (ADK's node config). */
export type NodeOptions = Pick<
  BaseNodeOptions,
  'name' | 'retryConfig' | 'timeout' | 'inputSchema' | 'outputSchema'
>;

/** What can stand in a graph: a node, a plain function (named after itself) or `'START'`. */
export type NodeLike = GraphNode | BaseAgent | BaseTool | FunctionNodeHandler | 'START';

export function isNodeLike(value: unknown): value is NodeLike {
  return (
    value === 'START' ||
    isGraphNode(value) ||
    value instanceof BaseAgent ||
    value instanceof BaseTool ||
    typeof value === 'function'
  );
}

/** A node for `value`: a plain function becomes a FunctionNode named after it. */
export function node(value: NodeLike, options: Partial<NodeOptions> = {}): GraphNode {
  if (value === 'START') return START;
  if (isGraphNode(value)) {
    const overrides = {
      ...options,
      ...(options.name !== undefined ? { name: options.name.trim() } : {}),
    };
    if (Object.keys(overrides).length === 0) return value;
    const copy = Object.create(Object.getPrototypeOf(value) as object) as GraphNode;
    return Object.assign(copy, value, overrides);
  }
  if (value instanceof BaseAgent) return new AgentNode(value, options);
  if (value instanceof BaseTool) return new ToolNode(value, options);
  if (typeof value === 'function') {
    const name = options.name ?? value.name;
    if (!name) throw new InvalidRequestError('A function used as a node needs a name');
    const { name: _name, ...rest } = options;
    return new FunctionNode(name, value, rest);
  }
  throw new InvalidRequestError(`Not a workflow node: ${typeof value}`);
}
