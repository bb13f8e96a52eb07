// When a mandate charge goes to the provider (decisions.md "Recurring PIX (mandates)"): from 10 to
// 2 days before its due date; a failed send is tried again from the due date on, at most once a
// day, up to 3 times, until 7 days after the due date.
export const SEND_WINDOW_DAYS = { first: 10, last: 2 } as const;
export const RETRIES = { max: 3, withinDays: 7, spacingMs: 86_400_000 } as const;
/** A claimed send not finished by then is taken again (a crash between claim and provider call). */
export const SEND_LEASE_MS = 5 * 60_000;
/** How long one send may hold its mandate against a cancel (the payment and its provider call). */
export const SEND_HOLD_MS = 60_000;
