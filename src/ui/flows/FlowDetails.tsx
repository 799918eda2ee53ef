interface Props {
  details: { name: string; description: string };
  readOnly: boolean;
  onChange: (key: 'name' | 'description', value: string) => void;
}

/** The flow's own fields, its name and description (what the Agent select shows of it). */
export function FlowDetails({ details, readOnly, onChange }: Props) {
  const input = (key: 'name' | 'description') => (event: Event) =>
    onChange(key, (event.currentTarget as HTMLInputElement | HTMLTextAreaElement).value);
  return (
    <div class="flow-details">
      <label>
        Flow name
        <input value={details.name} readOnly={readOnly} maxLength={100} onInput={input('name')} />
      </label>
      <label>
        Description
        <textarea
          value={details.description}
          readOnly={readOnly}
          rows={1}
          maxLength={1000}
          onInput={input('description')}
        />
      </label>
    </div>
  );
}
