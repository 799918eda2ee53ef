// Adding to a knowledge base: files (chosen, or dropped anywhere on the box) and pasted text with
// a name. The model reads the files and hands them to the worker; its progress comes by
// broadcast (the base page shows it).

import { useState } from 'preact/hooks';
import { ACCEPTED_FILES } from './knowledge-format.ts';

interface Props {
  baseName: string;
  busy: boolean;
  onFiles: (files: File[]) => Promise<boolean>;
  onText: (name: string, text: string) => Promise<boolean>;
}

export function KnowledgeAdd({ baseName, busy, onFiles, onText }: Props) {
  const [over, setOver] = useState(false);
  const [pasting, setPasting] = useState(false);
  const [name, setName] = useState('');
  const [text, setText] = useState('');
  return (
    <div
      class={over ? 'knowledge-add drop-over' : 'knowledge-add'}
      onDragOver={(event) => {
        if (!event.dataTransfer?.types.includes('Files')) return;
        event.preventDefault();
        setOver(true);
      }}
      onDragLeave={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setOver(false);
      }}
      onDrop={(event) => {
        event.preventDefault();
        setOver(false);
        const files = [...(event.dataTransfer?.files ?? [])];
        if (files.length > 0) void onFiles(files);
      }}
    >
      <div class="knowledge-add-row">
        <label class="file-button">
          Add files…
          <input
            type="file"
            multiple
            accept={ACCEPTED_FILES}
            disabled={busy}
            aria-describedby="knowledge-add-hint"
            onChange={(event) => {
              const input = event.currentTarget;
              const files = [...(input.files ?? [])];
              if (files.length > 0) void onFiles(files).then(() => (input.value = ''));
            }}
          />
        </label>
        <button type="button" aria-expanded={pasting} onClick={() => setPasting((open) => !open)}>
          Paste text
        </button>
        <p class="hint" id="knowledge-add-hint">
          Text, Markdown, HTML or PDF files; or drop them here. They are read and kept in this
          browser.
        </p>
      </div>
      {pasting && (
        <form
          class="knowledge-paste"
          aria-label={`Paste text into ${baseName}`}
          onSubmit={(event) => {
            event.preventDefault();
            void onText(name, text).then((added) => {
              if (!added) return;
              setName('');
              setText('');
              setPasting(false);
            });
          }}
        >
          <label class="field">
            Name of the text
            <input
              value={name}
              placeholder="Meeting notes, 3 May"
              onInput={(e) => setName(e.currentTarget.value)}
            />
          </label>
          <label class="field">
            Text
            <textarea rows={6} value={text} onInput={(e) => setText(e.currentTarget.value)} />
          </label>
          <div class="flow-buttons">
            <button type="submit" class="primary" disabled={busy}>
              Add text
            </button>
            <button type="button" onClick={() => setPasting(false)}>
              Cancel
            </button>
          </div>
        </form>
      )}
    </div>
  );
}
