// Settings → Tool servers → Approval policies: every tool a policy can be set for, known before
// its first call. A policy is set by a tool's name (`toolPolicies`), and applies wherever a tool
// of that name runs: a tool server's (through an agent or a flow), a built-in tool of an agent
// made in the builder, a flow's tool. So the list has one row per name, saying where it comes
// from; a policy set for a name no tool has now is listed too, so that it can be reset.

import { FLOW_DEMO_TOOLS } from '../../src/demos/flow-demo-tools.ts';
import { BUILTIN_TOOLS } from '../../src/tools/builtin-tools.ts';
import type { ToolPolicy } from '../../src/tools/tool-policy.ts';
import type { ToolServerRecord } from './tool-server-record.ts';
import type { ToolPolicyList, ToolPolicyRow } from '../protocol.ts';

/** Where the built-in tools of built agents, and the flows' own tools, say they come from. */
export const BUILT_IN_SOURCE = 'built-in';
export const FLOWS_SOURCE = 'flows';

export function toolPolicyList(
  servers: readonly ToolServerRecord[],
  policies: Readonly<Record<string, ToolPolicy>>,
): ToolPolicyList {
  const rows = new Map<string, ToolPolicyRow>();
  const add = (name: string, description: string, source: string, asks: boolean) => {
    const row = rows.get(name);
    if (row) {
      if (!row.sources.includes(source)) row.sources.push(source);
      row.asks ||= asks;
      row.description ||= description;
      return;
    }
    const policy = Object.hasOwn(policies, name) ? policies[name] : undefined;
    rows.set(name, { name, description, sources: [source], asks, ...(policy ? { policy } : {}) });
  };
  // A tool server's tool asks before each call unless told otherwise (PolicyToolset's 'ask').
  for (const server of servers)
    for (const tool of server.tools ?? []) add(tool.name, tool.description, server.name, true);
  for (const tool of BUILTIN_TOOLS) add(tool.name, tool.description, BUILT_IN_SOURCE, false);
  for (const tool of FLOW_DEMO_TOOLS) add(tool.name, tool.description, FLOWS_SOURCE, false);
  for (const [name, policy] of Object.entries(policies))
    if (!rows.has(name))
      rows.set(name, { name, description: '', sources: [], asks: false, policy });
  return {
    tools: [...rows.values()],
    unlistedServers: servers.filter((server) => !server.tools?.length).map((s) => s.name),
  };
}
