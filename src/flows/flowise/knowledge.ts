// Flowise's knowledge as a Trellis flow's (issue 34): V2's document stores and vector stores on an
// Agent node or a Retriever node, and V1's Retriever Tool fed by a vector store, become knowledge
// references (src/flows/flow-knowledge.ts). Flowise's stores live on its server: each reference
// keeps the store's name and waits for the user to pick one of their knowledge bases, unless the
// import was given a mapping (`{ 'AI-Paper': baseId }`). The report names each store that needs a
// base.

import type { KnowledgeRef } from '../flow.ts';
import { references, isRecord, rows, text, type FlowiseNode, type Importer } from './importer.ts';

type Inputs = Record<string, unknown>;

/** Flowise store names (or tool names) → the ids of the user's bases they are to search. */
export type KnowledgeMapping = Readonly<Record<string, string>>;

/** A store's text as the import keeps it: one line, no control characters, cut short. */
function clean(value: string, most: number): string {
  return value
    .replace(/[\p{Cc}\p{Cf}\s]+/gu, ' ')
    .trim()
    .slice(0, most);
}

/** A tool name made of a store's name: an identifier of at most 64 characters. */
function toolName(name: string, taken: Set<string>): string {
  const made = name
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, '_')
    .replace(/^[_-]+|[_-]+$/g, '')
    .slice(0, 56);
  const base = !made ? 'search_knowledge' : /^[a-z_]/.test(made) ? made : `kb_${made}`;
  let id = base;
  for (let n = 2; taken.has(id); n++) id = `${base}_${n}`;
  taken.add(id);
  return id;
}

/** Makes the references of one node, each named once, and reports each store. */
export class KnowledgeRefs {
  private readonly taken = new Set<string>();
  readonly refs: KnowledgeRef[] = [];

  constructor(
    private readonly im: Importer,
    private readonly nodeId: string,
    private readonly mapping: KnowledgeMapping = {},
  ) {}

  add(store: { source: string; name?: string; description?: string }): void {
    const source = clean(store.source, 200) || 'knowledge';
    // Flowise's own tool name when it is one (V1's Retriever Tool), else one made of the store's.
    const own = store.name ?? '';
    const name =
      /^[A-Za-z_][\w-]{0,63}$/.test(own) && !this.taken.has(own)
        ? own
        : toolName(source, this.taken);
    this.taken.add(name);
    const ref: KnowledgeRef = {
      name,
      ...(store.description?.trim()
        ? { description: store.description.trim().slice(0, 5000) }
        : {}),
      source,
    };
    const baseId =
      (Object.hasOwn(this.mapping, ref.name) && this.mapping[ref.name]) ||
      (Object.hasOwn(this.mapping, source) && this.mapping[source]);
    if (typeof baseId === 'string' && baseId) ref.baseId = baseId.slice(0, 200);
    this.refs.push(ref);
    this.im.note(
      this.nodeId,
      'changed',
      ref.baseId
        ? `knowledge “${source}” searches the knowledge base it was mapped to`
        : `knowledge “${source}” needs a knowledge base: pick one in the node's Knowledge field`,
    );
  }

  /** V2's `[{ documentStore: "<uuid>:<name>", docStoreDescription }]`. */
  documentStores(value: unknown): this {
    for (const row of rows(value)) {
      const store = text(row['documentStore']);
      const named = store.includes(':') ? store.slice(store.indexOf(':') + 1) : store;
      if (!named.trim()) continue;
      this.add({ source: named, description: text(row['docStoreDescription']) });
    }
    return this;
  }

  /** V2's `[{ vectorStore, embeddingModel, knowledgeName, knowledgeDescription }]`. */
  vectorStores(value: unknown): this {
    for (const row of rows(value)) {
      const source = text(row['knowledgeName']) || text(row['vectorStore']);
      if (!source.trim()) continue;
      this.add({ source, description: text(row['knowledgeDescription']) });
      if (text(row['embeddingModel']))
        this.im.note(
          this.nodeId,
          'changed',
          `knowledge “${clean(source, 200)}”: its embedding model (${clean(text(row['embeddingModel']), 100)}) becomes the one its knowledge base uses`,
        );
    }
    return this;
  }

  /** V1's Retriever Tools among a node's tools, each with the vector store feeding it. */
  retrieverTools(inputs: Record<string, unknown>, byId: ReadonlyMap<string, FlowiseNode>): this {
    for (const ref of references(inputs['tools'])) {
      const tool = byId.get(ref);
      if (tool?.data.name !== 'retrieverTool') continue;
      const toolInputs: Inputs = isRecord(tool.data.inputs) ? tool.data.inputs : {};
      const store = byId.get(references(toolInputs['retriever'])[0] ?? '');
      const storeInputs: Inputs = isRecord(store?.data.inputs) ? store.data.inputs : {};
      const index = text(storeInputs['pineconeIndex']) || text(storeInputs['indexName']);
      const label = store
        ? `${store.data.label ?? store.data.name}${index ? ` ${index}` : ''}`
        : '';
      this.add({
        source: label ? `${label} (${text(toolInputs['name'])})` : text(toolInputs['name']),
        name: text(toolInputs['name']),
        description: text(toolInputs['description']),
      });
    }
    return this;
  }
}

/** Whether a Flowise node is a V1 Retriever Tool (a knowledge reference, not a tool here). */
export function isRetrieverTool(node: FlowiseNode | undefined): boolean {
  return node?.data.name === 'retrieverTool';
}
