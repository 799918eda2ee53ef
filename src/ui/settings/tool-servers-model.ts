// Settings → Tool servers, the view model: the MCP servers, the form of the one being added or
// edited (header values typed here go to the worker and never come back), Test connection with
// the tools it found, and tools switched on and off; and the approval policy of every tool the
// agents and flows may call, settable before its first call.

import { ViewState } from '../workbench/view-state.ts';
import type {
  ToolPolicyList,
  ToolPolicyRow,
  ToolServerInfo,
  ToolServerInput,
} from '../../../workers/protocol.ts';
import type { RuntimeClient } from '../workbench/workbench.ts';
import type { ToolPolicy } from '../../tools/tool-policy.ts';

export interface ToolServerDraft {
  id?: string;
  name: string;
  url: string;
  /** A header's value is empty when it is kept as stored (its hint says what it ends with). */
  headers: { name: string; value: string; hint?: string }[];
  disabledTools: string[];
}

export interface ToolServersState {
  servers: ToolServerInfo[];
  /** Every tool a policy can be set for, with the one set (none: the tool's own rule). */
  policies: ToolPolicyList;
  draft: ToolServerDraft;
  /** What Test connection found: the tools, or what went wrong. */
  tools: { name: string; description: string }[] | undefined;
  status: string | undefined;
  error: string | undefined;
  busy: boolean;
}

const EMPTY: ToolServerDraft = {
  name: '',
  url: '',
  headers: [{ name: 'Authorization', value: '' }],
  disabledTools: [],
};

export class ToolServersModel extends ViewState<ToolServersState> {
  constructor(private readonly client: Pick<RuntimeClient, 'runtime'>) {
    super({
      servers: [],
      policies: { tools: [], unlistedServers: [] },
      draft: EMPTY,
      tools: undefined,
      status: undefined,
      error: undefined,
      busy: false,
    });
  }

  async start(): Promise<void> {
    await this.guard(async () =>
      this.set({
        servers: await this.client.runtime.listToolServers(),
        policies: await this.client.runtime.toolPolicyList(),
      }),
    );
  }

  /** Sets a tool's approval policy, or resets it (`undefined`). */
  async setPolicy(toolName: string, policy: ToolPolicy | undefined): Promise<void> {
    await this.guard(async () => {
      await this.client.runtime.setToolPolicy(toolName, policy);
      this.set({ policies: await this.client.runtime.toolPolicyList() });
    });
  }

  edit(patch: Partial<ToolServerDraft>): void {
    this.set({ draft: { ...this.state.draft, ...patch }, status: undefined, error: undefined });
  }

  open(server: ToolServerInfo | undefined): void {
    this.set({
      draft: server
        ? {
            id: server.id,
            name: server.name,
            url: server.url,
            headers: server.headers.map(({ name, hint }) => ({ name, value: '', hint })),
            disabledTools: [...server.disabledTools],
          }
        : EMPTY,
      // What the server listed when last tested; Test connection lists it again.
      tools: server && server.tools.length > 0 ? server.tools : undefined,
      status: undefined,
      error: undefined,
    });
  }

  toggleTool(name: string, on: boolean): void {
    const off = new Set(this.state.draft.disabledTools);
    if (on) off.delete(name);
    else off.add(name);
    this.edit({ disabledTools: [...off] });
  }

  async test(): Promise<void> {
    await this.guard(async () => {
      const result = await this.client.runtime.testToolServer(this.input());
      if (result.ok)
        this.set({ tools: result.tools, status: `Connected: ${result.tools.length} tools.` });
      else this.set({ tools: undefined, error: result.message });
    });
  }

  async save(): Promise<void> {
    await this.guard(async () => {
      const saved = await this.client.runtime.saveToolServer(this.input());
      // Its tools (as just listed) join the approval policies.
      this.set({
        servers: await this.client.runtime.listToolServers(),
        policies: await this.client.runtime.toolPolicyList(),
      });
      this.open(saved);
      this.set({ status: `Saved “${saved.name}”. Agents can use it now (Agents → Tool servers).` });
    });
  }

  async remove(id: string): Promise<void> {
    await this.guard(async () => {
      await this.client.runtime.deleteToolServer(id);
      this.set({
        servers: await this.client.runtime.listToolServers(),
        policies: await this.client.runtime.toolPolicyList(),
      });
      this.open(undefined);
      this.set({ status: 'Removed.' });
    });
  }

  /** The form as the worker takes it: a header left empty keeps its stored value. */
  private input(): ToolServerInput {
    const { id, name, url, headers, disabledTools } = this.state.draft;
    const { tools } = this.state;
    return {
      ...(id ? { id } : {}),
      ...(tools ? { tools } : {}),
      name,
      url,
      headers: headers
        .filter((header) => header.name.trim() && (header.value || header.hint))
        .map((header) => ({
          name: header.name.trim(),
          ...(header.value ? { value: header.value } : {}),
        })),
      disabledTools,
    };
  }

  private async guard(action: () => Promise<void>): Promise<void> {
    this.set({ busy: true, error: undefined });
    try {
      await action();
    } catch (error) {
      this.set({ error: (error as Error | null)?.message ?? String(error) });
    } finally {
      this.set({ busy: false });
    }
  }
}

/** The choices of a tool's policy: '' is none set (the tool's own rule, which it names). */
export function policyChoices(row: ToolPolicyRow): { value: ToolPolicy | ''; label: string }[] {
  return [
    { value: '', label: row.asks ? 'its own rule: ask' : 'its own rule: allow' },
    { value: 'ask', label: 'ask every time' },
    { value: 'always', label: 'always allow' },
    { value: 'never', label: 'never' },
  ];
}

/** Where a tool comes from, in words: "Local MCP", "built-in tool of built agents, flows"… */
export function sourcesText(row: ToolPolicyRow): string {
  if (row.sources.length === 0) return 'no tool has this name now';
  return row.sources
    .map((source) =>
      source === 'built-in'
        ? 'built-in (agents you build)'
        : source === 'flows'
          ? 'flows'
          : `tool server ${source}`,
    )
    .join(', ');
}
