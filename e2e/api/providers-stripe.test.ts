// Stripe end to end over HTTP, against its simulator (scripts/psp/stripe/, Stripe's wire format)
// behind a second app server configured as an operator configures Stripe. One simulator and one
// server for every Stripe test (./providers-stripe-setup.ts says why), the tests in three modules:
// pay-ins on every rail, notices and refunds (./providers-stripe-payins.ts); declines, a lost
// answer settled by reconciliation, signatures, disputes (./providers-stripe-failures.ts); the
// dashboard naming Stripe (./providers-stripe-dashboard.ts); Mexico's meses sin intereses on the
// hosted page (./providers-stripe-installments.ts).
import "./providers-stripe-payins.ts";
import "./providers-stripe-failures.ts";
import "./providers-stripe-dashboard.ts";
import "./providers-stripe-installments.ts";
