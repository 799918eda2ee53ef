// The types the checks of a flow file share (validate.ts, validate-graph.ts, validate-fields.ts,
// validate-v2.ts).

import type { FlowNodeType } from './flow.ts';

/** What validateFlow checks names against. */
export interface ValidateFlowOptions {
  /** The model names `compileFlow` knows; not checked when absent. */
  models?: readonly string[];
  /** The tool names `compileFlow` knows; not checked when absent. */
  tools?: readonly string[];
  /**
   * The tool servers (Settings → Tool servers) by name: a node may then also name
   * `Server name/tool`, a tool of that server (checked when the flow runs: listing needs the
   * server).
   */
  toolServers?: readonly string[];
  /** The other flows an Execute Flow node may name; not checked when absent. */
  flows?: readonly string[];
  /**
   * The knowledge bases that exist, by id: a knowledge reference with no base picked, or one no
   * longer there, is then a problem. Not checked when absent.
   */
  knowledgeBases?: readonly string[];
}

/** Records a problem, on a node when it concerns one. */
export type Report = (message: string, nodeId?: string) => void;

/** A node of an unchecked flow file: its id and type are known good, its other fields are not. */
export type FlowNodeData = Readonly<Record<string, unknown>> & {
  readonly id: string;
  readonly type: FlowNodeType;
};

/** A text of a node that may hold templates, and where it is (for messages). */
export interface TemplateText {
  where: string;
  text: string;
}
