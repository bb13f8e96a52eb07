// What the send-payout form sends beyond its fields, and which methods it offers. Constants and
// pure functions only, so the client form may import it.

/** SPEI's bank code is the CLABE's first three digits: the form asks for the CLABE alone and the
 * API's recipient gets its bank code from there (the API still checks the two agree). */
export function withBankCode<V extends { account: string; bankCode: string }>(rail: string, values: V): V {
  return rail === "spei" ? { ...values, bankCode: values.account.trim().slice(0, 3) } : values;
}

/** The methods the form offers: in the sandbox not the `sbx_po_*` test rails, which by contract
 * (API reference 3.3) take no debit, so a payout sent with them left the shown balance as it was;
 * the production ids the sandbox also takes are debited through the ledger and wait for their
 * simulated outcome, as a production payout waits for its bank. */
export function sendableMethods<M extends { id: string }>(methods: M[]): M[] {
  return methods.filter((m) => !m.id.startsWith("sbx_po_"));
}
