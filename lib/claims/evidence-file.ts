// What a file of chargeback evidence is: its type read from its first bytes (magic numbers), never
// from the declared content type or the name, and the name it is kept and downloaded under.
export type EvidenceType = "application/pdf" | "image/png" | "image/jpeg";

const SIGNATURES: Array<[EvidenceType, number[]]> = [
  ["application/pdf", [0x25, 0x50, 0x44, 0x46, 0x2d]], // %PDF-
  ["image/png", [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]],
  ["image/jpeg", [0xff, 0xd8, 0xff]],
];

const EXTENSIONS: Record<EvidenceType, string[]> = { "application/pdf": ["pdf"], "image/png": ["png"], "image/jpeg": ["jpg", "jpeg", "jpe", "jfif"] };

/** The evidence type the bytes are, or null: the declared type and the name are not trusted. */
export function sniffEvidenceType(bytes: Uint8Array): EvidenceType | null {
  for (const [type, sig] of SIGNATURES) if (bytes.length >= sig.length && sig.every((b, i) => bytes[i] === b)) return type;
  return null;
}

/** The extension a file of `type` gets when its name has none of ours. */
export const extensionFor = (type: EvidenceType) => EXTENSIONS[type][0]!;

const NAME_LIMIT = 200;
const extensionOf = (name: string) => /\.([a-z0-9]{1,8})$/i.exec(name)?.[1]?.toLowerCase() ?? null;
const typeOfExtension = (ext: string | null) => (Object.keys(EXTENSIONS) as EvidenceType[]).find((t) => ext !== null && EXTENSIONS[t].includes(ext)) ?? null;

/**
 * The name the file is kept and downloaded under: no path or control characters, at most 200
 * characters, ending in its type's extension. Null when the name says another of our types
 * (a PNG named invoice.pdf): the merchant meant to send something else.
 */
export function evidenceFileName(name: string, type: EvidenceType, i: number): string | null {
  const clean = name.replace(/[\\/]/g, "_").replace(/[\u0000-\u001f\u007f]/g, "").trim() || `evidence-${i + 1}`;
  const ext = extensionOf(clean);
  const named = typeOfExtension(ext);
  if (named !== null && named !== type) return null;
  // A long name loses the end of its stem, never its extension.
  const stem = named === type ? clean.slice(0, -(ext!.length + 1)) : clean;
  const suffix = named === type ? clean.slice(-(ext!.length + 1)) : `.${extensionFor(type)}`;
  return stem.slice(0, NAME_LIMIT - suffix.length) + suffix;
}
