// A component that re-renders only when one of its props changes (by identity): the heavy panels
// stay still while the chat streams.

import { Component, h, type ComponentType } from 'preact';

export function pure<P extends object>(Inner: ComponentType<P>): ComponentType<P> {
  return class Pure extends Component<P> {
    override shouldComponentUpdate(next: P): boolean {
      const previous = this.props as Record<string, unknown>;
      const incoming = next as Record<string, unknown>;
      const keys = new Set([...Object.keys(previous), ...Object.keys(incoming)]);
      for (const key of keys)
        if (key !== 'children' && previous[key] !== incoming[key]) return true;
      return false;
    }

    override render() {
      return h(Inner, this.props);
    }
  };
}
