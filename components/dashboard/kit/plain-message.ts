// The API's error messages are written for integrators (`field` in backticks, section numbers of
// the reference). The dashboard shows the same message in plain words: no backticks, no
// "(reference 3.1)", the field's label instead of its JSON name where the form names it.
export function plainMessage(message: string | undefined | null, labels: Record<string, string> = {}): string | undefined {
  if (!message) return undefined;
  return message
    .replace(/`([^`]+)`/g, (_, name: string) => labels[name] ?? name)
    .replace(/\s*\((?:see )?reference [\d.]+\)/gi, "")
    .replace(/\s{2,}/g, " ")
    .trim();
}
