// The one JSON object an agent's hook gets on stdin, or one line saying why not.

export function parseStdinObject(text: string): Record<string, unknown> {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new Error('stdin is not a JSON object');
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new Error('stdin is not a JSON object');
  return raw as Record<string, unknown>;
}
