/** XML checks shared by the engine's SVG tests and the service's diagram and viewer tests. */

/**
 * A minimal XML well-formedness check (no external parser is installed): every tag closes in
 * order, attributes are quoted, entities are known, and there is exactly one root element.
 * Returns the root element's name.
 */
export function checkWellFormedXml(xml: string): string {
  const stack: string[] = [];
  let root = '';
  let roots = 0;
  const tag =
    /<(\/?)([A-Za-z_][\w:.-]*)((?:\s+[A-Za-z_][\w:.-]*\s*=\s*(?:"[^"<]*"|'[^'<]*'))*)\s*(\/?)>|<\?xml[^?]*\?>|<!--[\s\S]*?-->/g;
  let last = 0;
  let match: RegExpExecArray | null;
  while ((match = tag.exec(xml)) !== null) {
    const text = xml.slice(last, match.index);
    if (/[<>]/.test(text)) throw new Error(`stray markup near ${JSON.stringify(text.slice(0, 60))}`);
    if (/&(?!(amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);)/.test(text))
      throw new Error(`bad entity in ${text.slice(0, 60)}`);
    if (stack.length === 0 && text.trim() !== '') throw new Error('text outside the root element');
    last = tag.lastIndex;
    if (match[2] === undefined) continue; // declaration or comment
    const [, closing, name, , selfClosing] = match;
    if (closing) {
      const open = stack.pop();
      if (open !== name) throw new Error(`</${name}> closes <${open}>`);
    } else {
      if (stack.length === 0) {
        roots++;
        root = name;
      }
      if (!selfClosing) stack.push(name);
    }
  }
  if (xml.slice(last).trim() !== '') throw new Error('text after the root element');
  if (stack.length > 0) throw new Error(`unclosed <${stack.join('>, <')}>`);
  if (roots !== 1) throw new Error(`${roots} root elements`);
  return root;
}
