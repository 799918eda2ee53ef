// Read aloud on an answer, where the browser can speak (`speechSynthesis`; none: no button). It
// says the answer's words (speech-text.ts), not its Markdown; pressed again while speaking, it
// stops. One voice at a time: reading another answer stops this one (its button follows).

import { useEffect, useRef, useState } from 'preact/hooks';
import { canSpeak } from './speech.ts';
import { speechText } from './speech-text.ts';

export function ReadAloudButton({ text }: { text: string }) {
  const [able] = useState(canSpeak);
  const [utterance, setUtterance] = useState<SpeechSynthesisUtterance>();
  // The message goes (another session) while it speaks: so does its voice. Only then: an
  // utterance that ended because another answer began must not cancel that one.
  const speakingNow = useRef(utterance);
  speakingNow.current = utterance;
  useEffect(() => () => void (speakingNow.current && speechSynthesis.cancel()), []);
  if (!able || !text.trim()) return null;
  const speaking = !!utterance;
  return (
    <button
      type="button"
      class="quiet"
      aria-pressed={speaking}
      onClick={() => {
        speechSynthesis.cancel();
        if (speaking) return setUtterance(undefined);
        const next = new SpeechSynthesisUtterance(speechText(text));
        next.lang = document.documentElement.lang || navigator.language;
        const done = () => setUtterance((current) => (current === next ? undefined : current));
        next.onend = done;
        next.onerror = done;
        setUtterance(next);
        speechSynthesis.speak(next);
      }}
    >
      {speaking ? 'Stop reading' : 'Read aloud'}
    </button>
  );
}
