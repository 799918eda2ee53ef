// Settings → Tool servers, in the worker: MCP servers the user's agents may use, with the headers
// they need (a bearer token is a secret: stored in IndexedDB only, like a provider's key, and the
// page gets only a masked hint of each header's value). Rules:
// - a header value goes in (save) and never comes out; messages that could quote one (a server's
//   error) are redacted first;
// - a server that agents use cannot be removed (they would lose their tools without a word);
// - tools can be switched off one by one: an agent is offered only the tools left on;
// - with a passphrase (workers/keys/key-vault.ts) a header's value is stored sealed, with its
// masked hint beside it, and opened only to connect.

import { InvalidRequestError } from '../../src/core/errors.ts';
import { redact } from '../../src/models/model-errors.ts';
import { McpToolset, type McpToolInfo } from '../../src/tools/mcp/mcp-toolset.ts';
import type { BaseTool } from '../../src/tools/base-tool.ts';
import { BaseToolset } from '../../src/tools/base-toolset.ts';
import { PolicyToolset, TOOL_POLICIES, type ToolPolicy } from '../../src/tools/tool-policy.ts';
import type { IndexedDbAppStore } from '../../src/store/app-store.ts';
import type {
  RuntimeBroadcast,
  ToolPolicyList,
  ToolServerInfo,
  ToolServerInput,
  ToolServerTest,
} from '../protocol.ts';
import { toolPolicyList } from './tool-policy-list.ts';
import type { KeyVault } from '../keys/key-vault.ts';
import {
  infoOf,
  listing,
  toolServerPlace,
  withoutKept,
  headerHint,
  type OpenedToolServer,
  type StoredHeader,
  type ToolServerRecord,
} from './tool-server-record.ts';

const SETTING = 'toolServers';
const POLICIES = 'toolPolicies';

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

export class AppToolServers {
  /** The toolsets handed out, by server version and choice of tools (see `toolset`). */
  private readonly toolsets = new Map<string, McpToolset>();

  constructor(
    private readonly store: IndexedDbAppStore,
    private readonly vault: KeyVault,
    private readonly broadcast: (message: RuntimeBroadcast) => void,
    /** What uses a server: it cannot be removed while anything does, nor renamed while flows do. */
    private readonly usedBy: (server: {
      id: string;
      name: string;
    }) => Promise<ServerUsers> = async () => ({ agents: [], flows: [] }),
  ) {}

  async list(): Promise<ToolServerInfo[]> {
    return (await this.records()).map(infoOf).sort((a, b) => a.name.localeCompare(b.name));
  }

  /** The stored server, header values as stored (sealed or not). */
  async stored(id: string): Promise<ToolServerRecord | undefined> {
    return (await this.records()).find((record) => record.id === id);
  }

  /**
   * The stored server with its header values opened, to connect to it (KeysLockedError while a
   * passphrase seals them and this tab has not been given it).
   */
  async record(id: string): Promise<OpenedToolServer | undefined> {
    const record = await this.stored(id);
    return record && this.opened(record);
  }

  private async opened(record: ToolServerRecord): Promise<OpenedToolServer> {
    const place = toolServerPlace(record.id);
    const headers = await Promise.all(
      record.headers.map(async ({ name, value }) => ({
        name,
        value: await this.vault.open(value, place),
      })),
    );
    return { ...record, headers };
  }

  async save(input: ToolServerInput): Promise<ToolServerInfo> {
    const records = await this.records();
    const old = input.id ? records.find((record) => record.id === input.id) : undefined;
    if (input.id && !old) throw new InvalidRequestError(`There is no tool server ${input.id}`);
    const id = old?.id ?? crypto.randomUUID().slice(0, 8);
    const { headers, ...checked } = this.checked(input, old);
    const record: ToolServerRecord = {
      id,
      ...checked,
      // A value given now is sealed (with a passphrase); one kept is as it was stored.
      headers: await Promise.all(
        headers.map(async (header) => {
          if (typeof header.value !== 'string' || header.kept || header.value === '')
            return withoutKept(header);
          const value = await this.vault.seal(header.value, toolServerPlace(id));
          return {
            name: header.name,
            value,
            ...(typeof value === 'string' || !header.value
              ? {}
              : { hint: headerHint(header.value) }),
          };
        }),
      ),
      updatedAt: Date.now(),
    };
    if (records.some((other) => other.id !== record.id && other.name === record.name))
      throw new InvalidRequestError(
        `Another tool server is called "${record.name}": give this one its own name`,
      );
    // Flows name a server's tools by its name (`Server/tool`): a rename would break them.
    const flows = old && old.name !== record.name ? (await this.usedBy(old)).flows : [];
    if (flows.length > 0)
      throw new InvalidRequestError(
        `The flows ${flows.join(', ')} name tools of "${old!.name}": it keeps its name while they do`,
      );
    await this.store.putSetting(SETTING, [
      ...records.filter((other) => other.id !== record.id),
      record,
    ]);
    this.broadcast({ type: 'agents-changed' });
    return infoOf(record);
  }

  async remove(id: string): Promise<void> {
    const record = await this.record(id);
    const { agents, flows } = record ? await this.usedBy(record) : { agents: [], flows: [] };
    const users = [...agents, ...flows.map((flow) => `the flow ${flow}`)];
    if (users.length > 0)
      throw new InvalidRequestError(
        `This tool server is used by ${users.join(', ')}: take it off ${users.length === 1 ? 'that one' : 'those'} first`,
      );
    await this.store.putSetting(
      SETTING,
      (await this.records()).filter((record) => record.id !== id),
    );
    this.closeToolsets(id);
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

  /** Every tool a policy can be set for, with the policy set, before any call of it. */
  async policyList(): Promise<ToolPolicyList> {
    return toolPolicyList(await this.records(), await this.policies());
  }

  /** The policy of one tool (read at each call of it). */
  readonly policyOf = async (toolName: string): Promise<ToolPolicy | undefined> => {
    const policies = await this.policies();
    return Object.hasOwn(policies, toolName) ? policies[toolName] : undefined;
  };

  /** Test connection: the server's tools, or what went wrong (header values blanked out). */
  async test(input: ToolServerInput): Promise<ToolServerTest> {
    const old = input.id ? await this.record(input.id) : undefined;
    let checked: Omit<OpenedToolServer, 'id' | 'updatedAt'>;
    try {
      const { headers, ...rest } = this.checked({ ...input, name: input.name || 'test' }, old);
      checked = {
        ...rest,
        headers: headers.map(({ name, value }) => ({ name, value: String(value) })),
      };
    } catch (error) {
      return { ok: false, message: (error as Error).message };
    }
    const toolset = this.toolsetOf(checked, undefined, { disabledTools: [] });
    // (The form sends what it listed with its next save: a test stores nothing.)
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

  /**
   * For a flow: a toolset for each `Server name/tool` it names (one connection per server), under
   * the user's policies (an MCP tool asks unless told not to). `servers` are the names a flow may
   * use; `version` changes when a server it uses changes.
   */
  async flowTools(refs: readonly string[]): Promise<FlowToolSet> {
    const records = await this.records();
    const byName = new Map(records.map((record) => [record.name, record]));
    const wanted = new Map<ToolServerRecord, string[]>();
    for (const ref of refs) {
      const slash = ref.lastIndexOf('/');
      const record = byName.get(ref.slice(0, slash));
      if (slash > 0 && record)
        wanted.set(record, [...(wanted.get(record) ?? []), ref.slice(slash + 1)]);
    }
    const tools: Record<string, BaseToolset> = {};
    for (const [record, names] of wanted) {
      const opened = await this.opened(record);
      const shared = new PolicyToolset(this.toolset(opened, names), this.policyOf, 'ask');
      for (const name of names)
        tools[`${record.name}/${name}`] = new OneTool(shared, record.name, name);
    }
    const version = JSON.stringify([...wanted.keys()].map(({ id, updatedAt }) => [id, updatedAt]));
    return { tools, servers: records.map((record) => record.name), version };
  }

  /** The tools flows' nodes may name from the servers: `Server name/tool`, for those left on. */
  async flowToolChoices(): Promise<string[]> {
    return (await this.records()).flatMap((record) =>
      (record.tools ?? [])
        .filter((tool) => !record.disabledTools.includes(tool.name))
        .map((tool) => `${record.name}/${tool.name}`),
    );
  }

  /**
   * The toolset of a stored server for an agent: its tools left on (and among `tools`, if given).
   * One per server version and choice of tools, so that the agents and flows built again after
   * an edit keep the connection; those of a server's earlier versions are closed.
   */
  toolset(record: OpenedToolServer, tools?: readonly string[]): McpToolset {
    const key = JSON.stringify([record.id, record.updatedAt, tools ?? null]);
    const cached = this.toolsets.get(key);
    if (cached) return cached;
    this.closeToolsets(record.id, record.updatedAt);
    const toolset = this.toolsetOf(record, tools, record);
    this.toolsets.set(key, toolset);
    return toolset;
  }

  /** Ends the connections of a server's toolsets (but those of its version `keep`). */
  private closeToolsets(serverId: string, keep?: number): void {
    for (const [key, toolset] of this.toolsets) {
      const [id, updatedAt] = JSON.parse(key) as [string, number];
      if (id !== serverId || updatedAt === keep) continue;
      this.toolsets.delete(key);
      void toolset.close();
    }
  }

  private toolsetOf(
    server: Pick<OpenedToolServer, 'url' | 'headers'>,
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

  /**
   * The server the form describes, checked; a header without a value keeps the stored one
   * (`kept`, as it was stored: sealed or not).
   */
  private checked(
    input: ToolServerInput,
    old: Pick<ToolServerRecord, 'headers' | 'tools'> | undefined,
  ): Omit<ToolServerRecord, 'id' | 'updatedAt' | 'headers'> & {
    headers: (StoredHeader & { kept?: boolean })[];
  } {
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
      if (header.value !== undefined) return { name: headerName, value: String(header.value) };
      // No value given: the stored one is kept (the page never had it).
      const stored = old?.headers.find((kept) => kept.name === headerName);
      return stored ? { ...stored, name: headerName, kept: true } : { name: headerName, value: '' };
    });
    return {
      name,
      url: url.href,
      headers,
      disabledTools: [...new Set((input.disabledTools ?? []).map(String))],
      tools: Array.isArray(input.tools) ? listing(input.tools) : (old?.tools ?? []),
    };
  }

  private async records(): Promise<ToolServerRecord[]> {
    return (await this.store.getSetting<ToolServerRecord[]>(SETTING)) ?? [];
  }
}

/** What uses a tool server, by name. */
export interface ServerUsers {
  agents: string[];
  flows: string[];
}

export interface FlowToolSet {
  tools: Record<string, BaseToolset>;
  servers: string[];
  version: string;
}

/** One tool of a server, as a flow's node names it: its absence is a clear error when it runs. */
class OneTool extends BaseToolset {
  constructor(
    private readonly inner: BaseToolset,
    private readonly server: string,
    private readonly name: string,
  ) {
    super();
  }

  override async getTools(): Promise<BaseTool[]> {
    const found = (await this.inner.getTools()).find((tool) => tool.name === this.name);
    if (!found)
      throw new InvalidRequestError(
        `The tool server ${this.server} has no tool "${this.name}" (or it is switched off in Settings → Tool servers)`,
      );
    return [found];
  }

  override close(): Promise<void> {
    return this.inner.close();
  }
}
