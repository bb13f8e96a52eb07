// Form fields arrive as strings; the API's schemas take numbers and absent fields. These turn a
// form's values into the body an API call would send, so the endpoint's own zod schema judges them.

/** Form fields are strings; the API takes numbers. A non-number stays a string so the use case answers amount_invalid. */
export function amountField(v: string | undefined): unknown {
  const t = (v ?? "").trim();
  if (t === "") return undefined;
  const n = Number(t.replace(",", "."));
  return Number.isFinite(n) ? n : t;
}

/** Optional text fields: an empty input is "not given", as in an API body without the field. */
export function optionalText(v: string | undefined): string | undefined {
  const t = v?.trim();
  return t ? t : undefined;
}
