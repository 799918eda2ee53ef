// The workbench's actions as the App hands them to its panels: stable callbacks (a panel
// re-renders only when its data changes), each moving the focus where its button went away.

import type {
  ChatSettings,
  ExportRequest,
  OutgoingAttachment,
  Settings,
} from '../../../workers/protocol.ts';
import { download } from '../common/download.ts';
import type { FormValues } from '../chat/start-form-model.ts';
import type { StateChanges } from '../state/state-edit-model.ts';
import type { Workbench } from '../workbench/workbench.ts';

export type AppActions = ReturnType<typeof actionsOf>;

/** Stable callbacks (the panels re-render only when their data changes). */
export function actionsOf(workbench: Workbench) {
  return {
    open: (id: string) => void workbench.open(id),
    newSession: () => void workbench.newSession(),
    newSessionWith: (agentId: string) => void workbench.newSession(agentId),
    copyToBrowser: () => void workbench.copyToBrowser(),
    remoteTrace: () => workbench.remoteTrace(),
    rename: (id: string, title: string) => void workbench.rename(id, title),
    remove: (id: string) => void workbench.remove(id),
    exportSession: (id: string) =>
      void workbench.exportSession(id).then((file) => file && download(file.filename, file.json)),
    exportEvalSet: (id: string) =>
      void workbench.exportEvalSet(id).then((file) => file && download(file.filename, file.json)),
    // Share and export (src/ui/export/): a page, Markdown or JSON, whole or some turns.
    exportAs: (id: string, request: ExportRequest) =>
      void workbench.exportAs(id, request).then((f) => f && download(f.filename, f.text, f.type)),
    exportTurns: (id: string) => workbench.exportTurns(id),
    importFile: (file: File) => void file.text().then((json) => workbench.importSession(json)),
    addToMemory: (id: string) => void workbench.addToMemory(id),
    setAgent: (agentId: string) => void workbench.setAgent(agentId),
    send: (text: string, attachments: OutgoingAttachment[], form?: FormValues) =>
      void workbench.send(text, attachments, form),
    rejectAndSend: (text: string, attachments: OutgoingAttachment[]) =>
      void workbench.rejectAndSend(text, attachments),
    stop: () => workbench.stop(),
    selectTurn: (id: string | undefined) => workbench.selectTurn(id),
    showEarlierMessages: () => void workbench.showEarlierMessages(),
    showEarlierTurns: () => void workbench.showEarlierTurns(),
    openLog: (open: boolean) => void workbench.openLog(open),
    showEarlierLog: () => void workbench.showEarlierLog(),
    rewind: (id: string) => void workbench.rewind(id),
    undoRewind: () => void workbench.undoRewind(),
    switchToBranch: (id: string) => void workbench.switchToBranch(id),
    rewindToCheckpoint: (id: string) => void workbench.rewindToCheckpoint(id),
    // The button pressed goes away with what it answered: the focus goes to the message box.
    edit: (id: string, text: string) => {
      void workbench.edit(id, text);
      focusMessageBox();
    },
    fork: (id: string) => void workbench.fork(id),
    editState: (changes: StateChanges) => workbench.editState(changes),
    stateBefore: (id: string) => workbench.stateBefore(id),
    stateValue: (key: string) => workbench.stateValue(key),
    setChatSettings: (settings: ChatSettings) => workbench.setChatSettings(settings),
    listProviders: () => workbench.listProviders(),
    providerModels: (providerId: string) => workbench.providerModels(providerId),
    localModelLoads: () => workbench.localModelLoads(),
    editStateAndRerun: (id: string, changes: StateChanges) => {
      void workbench.editStateAndRerun(id, changes);
      focusMessageBox();
    },
    regenerate: (id: string) => {
      void workbench.regenerate(id);
      focusMessageBox();
    },
    showInLog: (eventId: string) => void workbench.showInLog(eventId),
    resume: (run: Parameters<Workbench['resume']>[0]) => void workbench.resume(run),
    // The button goes away with the run it carries on: the focus goes to the message box.
    resumeTurn: (invocationId: string) => {
      void workbench.resumeTurn(invocationId);
      focusMessageBox();
    },
    dismissRuns: (invocationIds: readonly string[]) => workbench.dismissRuns(invocationIds),
    answer: (requestId: string, confirmed: boolean, payload?: unknown) => {
      void workbench.answer(requestId, confirmed, payload);
      focusMessageBox();
    },
    allowAlways: (requestId: string, toolName: string) => {
      void workbench.allowAlways(requestId, toolName);
      focusMessageBox();
    },
    respond: (callId: string, name: string, response: Record<string, unknown>) => {
      void workbench.respond(callId, name, response);
      focusMessageBox();
    },
    updateSettings: (patch: Partial<Settings>) => void workbench.updateSettings(patch),
    loadArtifact: (filename: string, version: number) => workbench.loadArtifact(filename, version),
    dismiss: () => workbench.dismiss(),
  };
}

function focusMessageBox(): void {
  document.querySelector<HTMLElement>('.composer textarea')?.focus();
}

/** Takes the user to the approval cards: the first one's first button gets the focus. */
export function showApprovals(): void {
  const card = document.querySelector<HTMLElement>('.approvals');
  card?.scrollIntoView({ block: 'nearest' });
  card?.querySelector<HTMLElement>('input, button')?.focus();
}
