// Settings → Tool servers, in the worker: MCP servers the user's agents may use, with the headers
// they need (a bearer token is a secret: stored in IndexedDB only, like a provider's key, and the
// page gets only a masked hint of each header's value). Rules:
// - a header value goes in (save) and never comes out; messages that could quote one (a server's
//   error) are redacted first;
// - a server that agents use cannot be removed (they would lose their tools without a word);
// - tools can be switched off one by one: an agent is offered only the tools left on.

import { InvalidRequestError } from '../src/core/errors.ts';
import { redact } from '../src/models/model-errors.ts';
import { McpToolset, type McpToolInfo } from '../src/tools/mcp/mcp-toolset.ts';
import { TOOL_POLICIES, type ToolPolicy } from '../src/tools/tool-policy.ts';
import type { IndexedDbAppStore } from '../src/store/app-store.ts';
import type {
  RuntimeBroadcast,
  ToolServerInfo,
  ToolServerInput,
  ToolServerTest,
} from './protocol.ts';

const SETTING = 'toolServers';
const POLICIES = 'toolPolicies';

/** A tool server as stored: its header values included. */
export interface ToolServerRecord {
  id: string;
  name: string;
  url: string;
  headers: { name: string; value: string }[];
  /** Tools the user switched off. */
  disabledTools: string[];
  updatedAt: number;
}

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

export class AppToolServers {
  constructor(
    private readonly store: IndexedDbAppStore,
    private readonly broadcast: (message: RuntimeBroadcast) => void,
    /** The names of the agents that use a server (it cannot be removed while there are any). */
    private readonly usedBy: (serverId: string) => Promise<string[]> = async () => [],
  ) {}

  async list(): Promise<ToolServerInfo[]> {
    return (await this.records()).map(infoOf).sort((a, b) => a.name.localeCompare(b.name));
  }

  async record(id: string): Promise<ToolServerRecord | undefined> {
    return (await this.records()).find((record) => record.id === id);
  }

  async save(input: ToolServerInput): Promise<ToolServerInfo> {
    const records = await this.records();
    const old = input.id ? records.find((record) => record.id === input.id) : undefined;
    if (input.id && !old) throw new InvalidRequestError(`There is no tool server ${input.id}`);
    const record: ToolServerRecord = {
      id: old?.id ?? crypto.randomUUID().slice(0, 8),
      ...this.checked(input, old),
      updatedAt: Date.now(),
    };
    if (records.some((other) => other.id !== record.id && other.name === record.name))
      throw new InvalidRequestError(
        `Another tool server is called "${record.name}": give this one its own name`,
      );
    await this.store.putSetting(SETTING, [
      ...records.filter((other) => other.id !== record.id),
      record,
    ]);
    this.broadcast({ type: 'agents-changed' });
    return infoOf(record);
  }

  async remove(id: string): Promise<void> {
    const users = await this.usedBy(id);
    if (users.length > 0)
      throw new InvalidRequestError(
        `This tool server is used by ${users.join(', ')}: take it off ${users.length === 1 ? 'that agent' : 'those agents'} first`,
      );
    await this.store.putSetting(
      SETTING,
      (await this.records()).filter((record) => record.id !== id),
    );
    this.broadcast({ type: 'agents-changed' });
  }

  /** The approval policies the user set, by tool name. */
  async policies(): Promise<Record<string, ToolPolicy>> {
    return (await this.store.getSetting<Record<string, ToolPolicy>>(POLICIES)) ?? {};
  }

  /** Sets a tool's approval policy; `undefined` resets it (the tool's own rule again). */
  async setPolicy(toolName: string, policy: ToolPolicy | undefined): Promise<void> {
    if (!toolName || toolName.length > 200) throw new InvalidRequestError('There is no such tool');
    if (policy !== undefined && !TOOL_POLICIES.includes(policy))
      throw new InvalidRequestError(`A policy is one of ${TOOL_POLICIES.join(', ')}`);
    const policies = { ...(await this.policies()) };
    if (policy === undefined) delete policies[toolName];
    else policies[toolName] = policy;
    await this.store.putSetting(POLICIES, policies);
  }

  /** The policy of one tool (read at each call of it). */
  readonly policyOf = async (toolName: string): Promise<ToolPolicy | undefined> => {
    const policies = await this.policies();
    return Object.hasOwn(policies, toolName) ? policies[toolName] : undefined;
  };

  /** Test connection: the server's tools, or what went wrong (header values blanked out). */
  async test(input: ToolServerInput): Promise<ToolServerTest> {
    const old = input.id ? await this.record(input.id) : undefined;
    let checked: Omit<ToolServerRecord, 'id' | 'updatedAt'>;
    try {
      checked = this.checked({ ...input, name: input.name || 'test' }, old);
    } catch (error) {
      return { ok: false, message: (error as Error).message };
    }
    const toolset = this.toolsetOf(checked, undefined, { disabledTools: [] });
    try {
      const tools = await toolset.getTools();
      return { ok: true, tools: tools.map(({ name, description }) => ({ name, description })) };
    } catch (error) {
      const secrets = checked.headers.map((header) => header.value);
      return { ok: false, message: redact((error as Error).message, secrets) };
    } finally {
      await toolset.close();
    }
  }

  /** The toolset of a stored server for an agent: its tools left on (and among `tools`, if given). */
  toolset(record: ToolServerRecord, tools?: readonly string[]): McpToolset {
    return this.toolsetOf(record, tools, record);
  }

  private toolsetOf(
    server: Pick<ToolServerRecord, 'url' | 'headers'>,
    tools: readonly string[] | undefined,
    { disabledTools }: Pick<ToolServerRecord, 'disabledTools'>,
  ): McpToolset {
    const off = new Set(disabledTools);
    return new McpToolset({
      connectionParams: {
        url: server.url,
        headers: Object.fromEntries(server.headers.map(({ name, value }) => [name, value])),
      },
      toolFilter: (tool: McpToolInfo) =>
        !off.has(tool.name) && (!tools || tools.includes(tool.name)),
    });
  }

  private checked(
    input: ToolServerInput,
    old: ToolServerRecord | undefined,
  ): Omit<ToolServerRecord, 'id' | 'updatedAt'> {
    const name = String(input.name ?? '').trim();
    if (!name) throw new InvalidRequestError('A tool server needs a name');
    if (name.length > 100)
      throw new InvalidRequestError('A tool server name has at most 100 characters');
    let url: URL;
    try {
      url = new URL(String(input.url ?? '').trim());
    } catch {
      throw new InvalidRequestError('The address must be a URL, e.g. http://localhost:3000/mcp');
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw new InvalidRequestError('The address must start with http:// or https://');
    const headers = (input.headers ?? []).map((header) => {
      const headerName = String(header.name ?? '').trim();
      if (!HEADER_NAME.test(headerName))
        throw new InvalidRequestError(`"${headerName}" is not a header name`);
      // No value given: the stored one is kept (the page never had it).
      const value =
        header.value ?? old?.headers.find((stored) => stored.name === headerName)?.value ?? '';
      return { name: headerName, value: String(value) };
    });
    return {
      name,
      url: url.href,
      headers,
      disabledTools: [...new Set((input.disabledTools ?? []).map(String))],
    };
  }

  private async records(): Promise<ToolServerRecord[]> {
    return (await this.store.getSetting<ToolServerRecord[]>(SETTING)) ?? [];
  }
}

/** What the page may see of a server: each header's value only as a masked hint. */
function infoOf(record: ToolServerRecord): ToolServerInfo {
  const { id, name, url, disabledTools, updatedAt } = record;
  return {
    id,
    name,
    url,
    disabledTools,
    updatedAt,
    headers: record.headers.map((header) => ({ name: header.name, hint: mask(header.value) })),
  };
}

function mask(value: string): string {
  return value.length <= 4 ? '••••' : `••••${value.slice(-4)}`;
}
