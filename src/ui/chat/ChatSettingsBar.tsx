// The header line of a chat with a model: which model it talks to and how (Model settings), and
// the form that changes them. A change is a turn of the chat's history (a rewind undoes it).

import { useEffect, useState } from 'preact/hooks';
import {
  CHAT_SETTINGS_KEY,
  type ChatSettings,
  type ProviderInfo,
} from '../../../workers/protocol.ts';
import { attachmentPolicy, type AttachmentPolicy } from '../../models/attachments.ts';
import type { AppActions } from '../shell/app-actions.ts';
import {
  draftOf,
  effectiveSettings,
  isChatSettings,
  settingsLine,
  settingsOf,
  type ChatSettingsDraft,
} from './chat-settings-model.ts';

interface Props {
  sessionId: string;
  /** The chat's state value for its settings (a long one comes as a preview: read whole). */
  stored: unknown;
  disabled: boolean;
  actions: Pick<AppActions, 'setChatSettings' | 'listProviders' | 'providerModels' | 'stateValue'>;
  /** The files the chat's provider takes (the message box offers those), once known. */
  onPolicy?: (policy: AttachmentPolicy | undefined) => void;
}

export function ChatSettingsBar({ sessionId, stored, disabled, actions, onPolicy }: Props) {
  const [providers, setProviders] = useState<ProviderInfo[]>([]);
  const [own, setOwn] = useState<ChatSettings | undefined>();
  const [draft, setDraft] = useState<ChatSettingsDraft>();
  const [models, setModels] = useState<string[]>([]);
  const [problem, setProblem] = useState<string>();
  useEffect(() => {
    void actions.listProviders().then(setProviders);
  }, [actions, sessionId]);
  useEffect(() => {
    if (stored === undefined) return setOwn(undefined);
    if (isChatSettings(stored)) return setOwn(stored);
    void actions.stateValue(CHAT_SETTINGS_KEY).then((whole) => {
      setOwn(isChatSettings(whole) ? whole : undefined);
    });
  }, [actions, stored, sessionId]);
  const settings = effectiveSettings(own, providers);
  const kind = providers.find((item) => item.id === settings?.providerId)?.kind;
  useEffect(() => onPolicy?.(kind && attachmentPolicy(kind)), [kind, onPolicy]);
  const providerId = draft?.providerId;
  useEffect(() => {
    setModels([]);
    if (!providerId) return;
    void actions.providerModels(providerId).then((test) => setModels(test.ok ? test.models : []));
  }, [actions, providerId]);

  const change = (patch: Partial<ChatSettingsDraft>) => {
    setDraft((old) => old && { ...old, ...patch });
    setProblem(undefined);
  };
  const save = async () => {
    if (!draft) return;
    const checked = settingsOf(draft);
    if ('problem' in checked) return setProblem(checked.problem);
    if (await actions.setChatSettings(checked.settings)) setDraft(undefined);
  };
  const provider = providers.find((item) => item.id === draft?.providerId);
  const field = (name: 'temperature' | 'topP' | 'maxOutputTokens') => ({
    value: draft?.[name] ?? '',
    onInput: (value: string) => change({ [name]: value }),
  });
  return (
    <section class="chat-settings" aria-label="Model settings">
      <p class="chat-settings-line">
        <span class="chat-settings-label">Model</span> {settingsLine(settings, providers)}
      </p>
      <button
        type="button"
        aria-expanded={!!draft}
        disabled={disabled && !draft}
        onClick={() => setDraft(draft ? undefined : draftOf(settings))}
      >
        Model settings
      </button>
      {draft && (
        <form
          class="chat-settings-form"
          // Its own checks say what is wrong, in words (the browser's would only block the save).
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            void save();
          }}
        >
          <label>
            Provider
            <select
              value={draft.providerId}
              onChange={(event) => change({ providerId: event.currentTarget.value, model: '' })}
            >
              {!provider && <option value={draft.providerId}>(choose a provider)</option>}
              {providers.map((item) => (
                <option key={item.id} value={item.id}>
                  {item.name}
                </option>
              ))}
            </select>
          </label>
          <label>
            Model
            <input
              value={draft.model}
              list="chat-models"
              placeholder={
                provider?.defaultModel ? `${provider.defaultModel} (the default)` : 'A model name'
              }
              onInput={(event) => change({ model: event.currentTarget.value })}
            />
            <datalist id="chat-models">
              {models.map((model) => (
                <option key={model} value={model} />
              ))}
            </datalist>
          </label>
          <label class="chat-settings-prompt">
            System prompt
            <textarea
              rows={3}
              value={draft.systemPrompt}
              placeholder="How the model should answer (optional)"
              onInput={(event) => change({ systemPrompt: event.currentTarget.value })}
            />
          </label>
          <NumberField
            label="Temperature"
            min="0"
            max="2"
            step="0.1"
            decimal
            {...field('temperature')}
          />
          <NumberField label="Top-p" min="0" max="1" step="0.05" decimal {...field('topP')} />
          <NumberField label="Max output tokens" min="1" step="1" {...field('maxOutputTokens')} />
          {problem && (
            <p class="problems" role="alert">
              {problem}
            </p>
          )}
          <p class="hint">
            For this chat only, from its next message; the change is a turn of its history, so a
            rewind to before it brings these settings back.
          </p>
          <div class="chat-settings-actions">
            <button type="submit" class="primary" disabled={disabled}>
              Save settings
            </button>
            <button type="button" onClick={() => setDraft(undefined)}>
              Cancel
            </button>
          </div>
        </form>
      )}
    </section>
  );
}

/** A number as typed (empty: the provider's default). */
function NumberField(props: {
  label: string;
  value: string;
  onInput: (value: string) => void;
  min: string;
  max?: string;
  step: string;
  decimal?: boolean;
}) {
  return (
    <label>
      {props.label}
      <input
        type="number"
        inputMode={props.decimal ? 'decimal' : 'numeric'}
        min={props.min}
        max={props.max}
        step={props.step}
        placeholder="default"
        value={props.value}
        onInput={(event) => props.onInput(event.currentTarget.value)}
      />
    </label>
  );
}
