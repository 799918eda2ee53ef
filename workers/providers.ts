// Settings → Providers, in the worker: the model providers with their keys, stored in IndexedDB
// only. Rules:
// - a key goes in (save) and never comes out: what the page gets is `ProviderInfo`, built field by
//   field with the key masked; broadcasts say only that providers changed;
// - every message that could quote the key (a provider's error, say) is redacted first;
// - a provider that agents use cannot be deleted (they would stop working without a word);
// - with a passphrase (workers/keys/key-vault.ts) a key is stored sealed, with its masked hint
// beside it, and opened only to build a model or list models.

import { InvalidRequestError, type BaseLlm, type HttpModelOptions } from '../src/index.ts';
import { redact } from '../src/models/model-errors.ts';
import { createProviderModel, providerClient } from '../src/models/provider-models.ts';
import { maskKey, providerProblems, type ProviderSpec } from '../src/models/provider-spec.ts';
import type { IndexedDbAppStore, ProviderRecord } from '../src/store/app-store.ts';
import type { FlowModelSet } from './flows/flows.ts';
import type { KeyVault, StoredSecret } from './keys/key-vault.ts';
import { LocalModels, type LocalModelFile } from './local-models/local-models.ts';
import { LocalEmbedders } from './local-models/local-embedder.ts';
import { embedderFor } from '../src/knowledge/embedders.ts';
import type { EmbeddingChoice, Embedder } from '../src/knowledge/types.ts';
import type {
  ConnectionTest,
  LocalModelLoad,
  LocalModelStatus,
  ProviderInfo,
  ProviderInput,
  RuntimeBroadcast,
} from './protocol.ts';

export interface AppProvidersOptions {
  broadcast: (message: RuntimeBroadcast) => void;
  /** Retries and timeouts of the models agents run on (tests make retries quick). */
  modelHttp?: HttpModelOptions | undefined;
  /** Where local models' files are kept and loaded (the browser's OPFS and wllama by default). */
  localModels?: LocalModels | undefined;
  /** Seals and opens keys when a passphrase protects them. */
  vault: KeyVault;
}

/** A provider with its key opened: for building models in this worker only. */
export type OpenedProvider = ProviderSpec & Pick<ProviderRecord, 'updatedAt'>;

/** Where a provider's key sits, bound into its sealed form. */
export const providerKeyPlace = (id: string) => `provider:${id}`;

/** Listing models answers a person waiting on a button: one retry, and a shorter watchdog. */
const LISTING: HttpModelOptions = { maxRetries: 1, retryBaseMs: 300, idleTimeoutMs: 15_000 };

export class AppProviders {
  private readonly local: LocalModels;
  /** Local GGUFs loaded to embed (knowledge bases), apart from the chat's: made when first used. */
  private embedders: LocalEmbedders | undefined;

  constructor(
    private readonly store: IndexedDbAppStore,
    private readonly options: AppProvidersOptions,
  ) {
    this.local = options.localModels ?? new LocalModels();
  }

  /**
   * Settings → Providers → Add local model: copies the GGUF file (or every part of a split model)
   * into the browser's storage and saves a provider of kind `local-gguf` for it, named after the
   * file (a taken name gets a number).
   */
  async addLocal(files: File | File[]): Promise<ProviderInfo> {
    const id = crypto.randomUUID().slice(0, 8);
    return this.saveLocal(id, await this.local.add(id, files));
  }

  /**
   * Add a local model by URL: downloads the file (or the rest of an interrupted download of it)
   * into the browser's storage, with progress broadcast, then saves a provider as for a file.
   */
  async downloadLocal(url: string): Promise<ProviderInfo> {
    const id = crypto.randomUUID().slice(0, 8);
    const localFile = await this.local.download(id, url, (progress) =>
      this.options.broadcast({ type: 'local-download', ...progress }),
    );
    return this.saveLocal(id, localFile);
  }

  /** Stops the download of `url`, keeping what came for the next Download. */
  cancelDownload(url: string): void {
    this.local.cancelDownload(url);
  }

  /** Where a local model is in this tab: not loaded, loading, or loaded (and its memory). */
  localStatus(id: string): LocalModelStatus {
    return this.local.status(id);
  }

  /** The local models loading in this tab now (the chat shows them while a turn waits). */
  localLoads(): LocalModelLoad[] {
    return this.local.loads();
  }

  /** Settings → Load: loads a local model now rather than on an agent's first message. */
  async loadLocal(id: string): Promise<LocalModelStatus> {
    return this.local.load(await this.record(id));
  }

  /** Settings → Unload: frees a local model's memory (once its reply in progress is done). */
  unloadLocal(id: string): Promise<LocalModelStatus> {
    return this.local.unload(id);
  }

  private async saveLocal(id: string, localFile: LocalModelFile): Promise<ProviderInfo> {
    const taken = new Set((await this.store.listProviders()).map((p) => p.name));
    const base =
      localFile.name.replace(/(-\d{5}-of-\d{5})?\.gguf$/i, '').slice(0, 70) || 'Local model';
    let name = base;
    for (let n = 2; taken.has(name); n++) name = `${base} ${n}`;
    const record: ProviderRecord = {
      id,
      kind: 'local-gguf',
      name,
      baseUrl: '',
      defaultModel: localFile.name.slice(0, 200),
      localFile,
      updatedAt: Date.now(),
    };
    try {
      await this.store.putProvider(record);
    } catch (error) {
      // No provider points at the copy: it would only take room.
      await this.local.remove(id).catch(() => undefined);
      throw error;
    }
    this.options.broadcast({ type: 'providers-changed' });
    return infoOf(record);
  }

  /** Every provider by name, keys masked. */
  async list(): Promise<ProviderInfo[]> {
    const records = await this.store.listProviders();
    return records.map(infoOf).sort((a, b) => a.name.localeCompare(b.name));
  }

  /** Saves a new provider (no `id`) or changes one; refuses one with problems, naming them. */
  async save(input: ProviderInput): Promise<ProviderInfo> {
    const { spec, storedKey } = await this.specOf(input);
    const problems = providerProblems(spec);
    const others = (await this.store.listProviders()).filter((other) => other.id !== spec.id);
    if (others.some((other) => other.name.trim() === spec.name.trim()))
      problems.push(`Another provider is called "${spec.name.trim()}": give this one its own name`);
    if (problems.length > 0) throw new InvalidRequestError(problems.join('. '));
    const { apiKey: newKey, ...fields } = spec;
    const apiKey: StoredSecret | undefined = newKey
      ? await this.options.vault.seal(newKey, providerKeyPlace(spec.id))
      : storedKey?.apiKey;
    const keyHint = newKey ? maskKey(newKey) : storedKey?.keyHint;
    const record: ProviderRecord = {
      ...fields,
      name: spec.name.trim(),
      baseUrl: spec.baseUrl.trim(),
      defaultModel: spec.defaultModel.trim(),
      ...(apiKey ? { apiKey } : {}),
      ...(apiKey && typeof apiKey !== 'string' && keyHint ? { keyHint } : {}),
      updatedAt: Date.now(),
    };
    await this.store.putProvider(record);
    this.options.broadcast({ type: 'providers-changed' });
    return infoOf(record);
  }

  async remove(id: string): Promise<void> {
    const users = (await this.store.listAgentSpecs()).filter((spec) => spec.providerId === id);
    if (users.length > 0) {
      const names = users.map((spec) => spec.name).join(', ');
      throw new InvalidRequestError(
        `This provider is used by ${users.length === 1 ? 'the agent' : 'the agents'} ${names}: give ${users.length === 1 ? 'it' : 'them'} another provider first`,
      );
    }
    const record = await this.store.getProvider(id);
    await this.store.deleteProvider(id);
    if (record?.kind === 'local-gguf') {
      await this.embedders?.unload(id);
      await this.local.remove(id);
    }
    this.options.broadcast({ type: 'providers-changed' });
  }

  /**
   * "Test connection" on the form as it stands (saved or not): the provider's models, or its
   * error in its own words. The stored key is used unless the form has a new one.
   */
  async test(input: ProviderInput): Promise<ConnectionTest> {
    const { spec, storedKey } = await this.specOf(input);
    const problems = providerProblems(spec);
    if (problems.length > 0) return { ok: false, message: problems.join('. ') };
    if (spec.kind === 'local-gguf') return { ok: true, models: [spec.defaultModel] };
    if (!spec.apiKey && storedKey?.apiKey)
      spec.apiKey = await this.options.vault.open(storedKey.apiKey, providerKeyPlace(spec.id));
    return listModels(spec);
  }

  /** The models of a saved provider, for the agent builder's model field. */
  async models(providerId: string): Promise<ConnectionTest> {
    const record = await this.record(providerId);
    // A local provider is one model: its file.
    if (record.kind === 'local-gguf') return { ok: true, models: [record.defaultModel] };
    return listModels(record);
  }

  /**
   * The stored provider, key opened: for building models in this worker only (KeysLockedError
   * while a passphrase protects the key and this tab has not been given it).
   */
  async record(id: string): Promise<OpenedProvider> {
    const record = await this.store.getProvider(id);
    if (!record) {
      throw new InvalidRequestError(
        'This agent’s provider was deleted: choose another one in the agent builder',
      );
    }
    return this.opened(record);
  }

  private async opened(record: ProviderRecord): Promise<OpenedProvider> {
    const { apiKey, keyHint: _hint, ...fields } = record;
    if (apiKey === undefined) return fields;
    return {
      ...fields,
      apiKey: await this.options.vault.open(apiKey, providerKeyPlace(record.id)),
    };
  }

  /** What makes a knowledge base's vectors: `choice.model` of its provider (a local GGUF's too). */
  async embedder(choice: EmbeddingChoice): Promise<Embedder> {
    if (!(await this.store.getProvider(choice.providerId)))
      throw new InvalidRequestError(
        'The provider of this knowledge base’s embedding model was deleted: choose another model in the base’s settings',
      );
    const record = await this.record(choice.providerId);
    if (record.kind !== 'local-gguf')
      return embedderFor(record, choice.model, this.options.modelHttp ?? {});
    this.embedders ??= new LocalEmbedders(this.local.backend);
    return this.embedders.embedder(record, choice.model || undefined);
  }

  /** The model of an agent: `modelName` (or the provider's default) on the stored provider. */
  model(record: OpenedProvider, modelName: string): BaseLlm {
    if (record.kind === 'local-gguf') return this.local.model(record);
    return createProviderModel(record, modelName, this.options.modelHttp ?? {});
  }

  /** A model flowModels built: its provider and model name (its context window needs them). */
  flowModelSource(model: BaseLlm): { provider: OpenedProvider; model: string } | undefined {
    return this.flowModelSources.get(model);
  }

  private readonly flowModelSources = new WeakMap<
    BaseLlm,
    { provider: OpenedProvider; model: string }
  >();

  /**
   * The models a flow names, `Provider name/model` (the longest provider name that prefixes it),
   * built on the stored providers; with every provider's default model as the names a flow may
   * use, and a version that changes when one of the providers used does.
   */
  async flowModels(names: readonly string[]): Promise<FlowModelSet> {
    const records = await this.store.listProviders();
    const byLength = [...records].sort((a, b) => b.name.length - a.name.length);
    const models: Record<string, BaseLlm> = {};
    const used: string[] = [];
    for (const name of names) {
      const record = byLength.find((candidate) => name.startsWith(`${candidate.name}/`));
      const model = record && name.slice(record.name.length + 1);
      if (!record || !model) continue;
      const opened = await this.opened(record);
      models[name] = this.model(opened, model);
      this.flowModelSources.set(models[name], { provider: opened, model });
      used.push(`${record.id}@${record.updatedAt}`);
    }
    const defaults = records.map((record) => `${record.name}/${record.defaultModel}`);
    return {
      models,
      known: [...new Set([...Object.keys(models), ...defaults])],
      version: used.sort().join(' '),
    };
  }

  /**
   * The spec the form describes, with its new key if it gives one; and the stored key (sealed or
   * not, as it is stored) that is kept unless a new one is given or the key is removed.
   */
  private async specOf(
    input: ProviderInput,
  ): Promise<{ spec: ProviderSpec; storedKey?: Pick<ProviderRecord, 'apiKey' | 'keyHint'> }> {
    const stored = input.id === undefined ? undefined : await this.store.getProvider(input.id);
    if (input.id !== undefined && !stored)
      throw new InvalidRequestError('This provider was deleted (in another tab?): add it again');
    if (stored?.kind === 'local-gguf' || input.kind === 'local-gguf') {
      // Only the name of a local model changes here; its file and kind stay as added.
      if (!stored?.localFile)
        return {
          spec: {
            ...input,
            apiKey: undefined,
            name: String(input.name ?? ''),
            baseUrl: '',
            defaultModel: '',
            id: input.id ?? '',
          },
        };
      const { apiKey: _key, keyHint: _hint, updatedAt: _at, contextTokens: _set, ...kept } = stored;
      const { contextTokens } = input;
      return {
        spec: {
          ...kept,
          name: String(input.name ?? ''),
          ...(contextTokens !== undefined ? { contextTokens } : {}),
        },
      };
    }
    const newKey = input.removeKey ? undefined : input.apiKey?.trim() || undefined;
    const keep = !input.removeKey && !newKey && stored?.apiKey !== undefined;
    return {
      spec: {
        id: input.id ?? crypto.randomUUID().slice(0, 8),
        kind: input.kind,
        name: String(input.name ?? ''),
        baseUrl: String(input.baseUrl ?? '').trim(),
        defaultModel: String(input.defaultModel ?? ''),
        ...(newKey ? { apiKey: newKey } : {}),
        // The window the user set (checked by providerProblems); absent: the one the app knows.
        ...(input.contextTokens !== undefined ? { contextTokens: input.contextTokens } : {}),
      },
      ...(keep ? { storedKey: { apiKey: stored.apiKey, keyHint: stored.keyHint } } : {}),
    };
  }
}

/** What the page may know of a provider. Field by field: a key must never ride along. */
export function infoOf(record: ProviderRecord): ProviderInfo {
  const { id, kind, name, baseUrl, defaultModel, updatedAt, localFile, contextTokens, apiKey } =
    record;
  const keyHint =
    apiKey === undefined
      ? undefined
      : typeof apiKey === 'string'
        ? maskKey(apiKey)
        : (record.keyHint ?? '••••');
  return {
    id,
    kind,
    name,
    baseUrl,
    defaultModel,
    updatedAt,
    ...(keyHint ? { keyHint } : {}),
    ...(localFile ? { localFile: { name: localFile.name, size: localFile.size } } : {}),
    ...(contextTokens !== undefined ? { contextTokens } : {}),
  };
}

async function listModels(spec: ProviderSpec): Promise<ConnectionTest> {
  const secrets = spec.apiKey ? [spec.apiKey] : [];
  try {
    const models = await providerClient(spec, undefined, LISTING).listModels();
    return { ok: true, models: [...new Set(models)].sort((a, b) => a.localeCompare(b)) };
  } catch (error) {
    // Expected: the provider's clear error is the answer. Redacted again, to be sure.
    return { ok: false, message: redact((error as Error).message ?? String(error), secrets) };
  }
}
