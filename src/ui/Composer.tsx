import { useState } from 'preact/hooks';

interface Props {
  running: boolean;
  disabled: boolean;
  placeholder: string;
  onSend: (text: string) => void;
  onStop: () => void;
}

export function Composer({ running, disabled, placeholder, onSend, onStop }: Props) {
  const [text, setText] = useState('');
  return (
    <form
      class="composer"
      onSubmit={(event) => {
        event.preventDefault();
        if (!text.trim() || running || disabled) return;
        onSend(text);
        setText('');
      }}
    >
      <input
        aria-label="Message"
        value={text}
        placeholder={placeholder}
        disabled={disabled}
        onInput={(event) => setText(event.currentTarget.value)}
      />
      {running ? (
        <button type="button" class="danger" onClick={onStop}>
          Stop
        </button>
      ) : (
        <button type="submit" class="primary" disabled={disabled}>
          Send
        </button>
      )}
    </form>
  );
}
