// How a chat message reaches the worker's knowledge room to open a source (main.tsx provides the
// worker's `knowledge.open`): the message list stays free of the client, and a page without it
// (a test harness) shows sources that open nothing but the text the tool gave.

import { createContext } from 'preact';
import type { KnowledgeChunkView } from '../../../workers/protocol.ts';

export type OpenChunk = (chunkId: string) => Promise<KnowledgeChunkView>;

export const KnowledgeOpenContext = createContext<OpenChunk | undefined>(undefined);
