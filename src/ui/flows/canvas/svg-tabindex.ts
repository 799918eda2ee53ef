// xyflow (a React library) writes `tabIndex` on the SVG group of each edge. React writes that as
// the `tabindex` attribute; Preact sets an SVG element's props as attributes by their own name,
// and an SVG element's attribute names keep their case: `tabIndex` is no tabindex there, and the
// edge could not take the keyboard's focus (Tab, then Enter to select it, Delete to delete it).
// This hook renames it on SVG elements as React does, once, when the canvas's chunk loads.

import { options, type VNode } from 'preact';

/** The SVG elements xyflow draws with a tabIndex (an edge is a `g`). */
const SVG_TAGS = new Set(['g', 'path', 'svg']);

const previous = options.vnode;
options.vnode = (vnode: VNode) => {
  const props = vnode.props as Record<string, unknown> | null;
  if (typeof vnode.type === 'string' && SVG_TAGS.has(vnode.type) && props && 'tabIndex' in props) {
    props['tabindex'] = props['tabIndex'];
    delete props['tabIndex'];
  }
  previous?.(vnode);
};
