// The composer's microphone, where the browser offers speech recognition (none: no button).
// Pressed, it listens: what is heard goes into the message box after what was there, the
// guesses first and then the final words, until pressed again (or the recogniser stops). What
// it is doing is said beside it: listening, stopped, or what went wrong (permission denied, no
// microphone), in a live region.

import { useEffect, useRef, useState } from 'preact/hooks';
import { LineIcon } from '../common/LineIcon.tsx';
import {
  dictationError,
  heard,
  recognitionClass,
  withDictated,
  type Recognition,
} from './speech.ts';

interface Props {
  text: string;
  disabled: boolean;
  onText: (text: string) => void;
}

export function DictationButton({ text, disabled, onText }: Props) {
  const [Engine] = useState(recognitionClass);
  const [listening, setListening] = useState(false);
  const [said, setSaid] = useState('');
  const recognition = useRef<Recognition>(undefined);
  // Stops listening when the composer goes (another session, a view).
  useEffect(() => () => recognition.current?.abort(), []);
  if (!Engine) return null;

  const start = () => {
    const base = text;
    let failed = false;
    const engine = new Engine();
    engine.lang = document.documentElement.lang || navigator.language;
    engine.continuous = true;
    engine.interimResults = true;
    engine.onresult = (event) => onText(withDictated(base, heard(event)));
    engine.onerror = ({ error }) => {
      const problem = dictationError(error);
      failed = !!problem;
      if (problem) setSaid(problem);
    };
    engine.onend = () => {
      recognition.current = undefined;
      setListening(false);
      if (!failed) setSaid('Dictation stopped.');
    };
    try {
      engine.start();
    } catch (error) {
      setSaid(`Dictation could not start: ${(error as Error).message}`);
      return;
    }
    recognition.current = engine;
    setListening(true);
    setSaid('Listening… press the microphone again to stop.');
  };

  return (
    <>
      <button
        type="button"
        class={`dictate${listening ? ' listening' : ''}`}
        aria-label="Dictate"
        aria-pressed={listening}
        title={listening ? 'Stop dictating' : 'Dictate: speak, and the words go into the message'}
        disabled={disabled && !listening}
        onClick={() => (listening ? recognition.current?.stop() : start())}
      >
        <LineIcon d="M12 3a3 3 0 0 0-3 3v6a3 3 0 0 0 6 0V6a3 3 0 0 0-3-3Zm-7 9a7 7 0 0 0 14 0M12 19v3" />
      </button>
      <span class="dictation-status" role="status">
        {said}
      </span>
    </>
  );
}
