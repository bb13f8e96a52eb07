// Buyer-page text in the three languages we serve. English is the reference, here: the other two
// (messages-es.ts, messages-pt-br.ts) must have every key (the type says so), so a missing
// translation fails typecheck.
import type { Locale } from "@/lib/i18n/locale";
import { es } from "@/lib/i18n/messages-es";
import { ptBR } from "@/lib/i18n/messages-pt-br";

const en = {
  secureCheckout: "Secure checkout",
  testMode: "Test mode: no real money moves.",
  language: "Language",
  payTo: (merchant: string) => `Pay ${merchant}`,
  total: "Total",
  approx: (usd: string) => `About ${usd}`,
  orderRef: (ref: string) => `Order ${ref}`,
  yourDetails: "Your details",
  name: "Name",
  email: "Email",
  phone: "Phone",
  chooseMethod: "Choose how to pay",
  methodHint: {
    pix: "Instant, from your bank app",
    spei: "Bank transfer, usually within minutes",
    oxxo: "Cash at any OXXO store",
    boleto: "Pay in your bank app or at a bank, 1-3 days",
    card: "Credit or debit card",
    bank_transfer: "From your bank account",
  } as Record<string, string>,
  documentLabel: "Document number",
  documentHelp: "The payment method needs it to confirm who is paying.",
  continue: "Continue to payment",
  expires: (when: string) => `This checkout expires ${when}.`,
  payBefore: (when: string) => `Pay before ${when}. After that this payment expires.`,
  noMethods: "No payment method is available for this amount. Please contact the store.",
  errors: {
    choose_method: "Choose a payment method.",
    missing_required_fields: "Check the highlighted field to continue.",
    amount_out_of_limits: "This payment method does not accept this amount. Choose another one.",
    method_unavailable: "This payment method is not available right now. Choose another one.",
    generic: "We could not start this payment. Please try again or choose another method.",
  } as Record<string, string>,
  unknownTitle: "Checkout not found",
  unknownBody: "This payment link is not valid. Check the link you received, or ask the store for a new one.",
  expiredTitle: "This checkout has expired",
  expiredBody: (merchant: string) => `Payment links last 24 hours. Ask ${merchant} for a new one; you have not been charged.`,
  usedTitle: "You already chose how to pay",
  usedBody: "This checkout has already started a payment. You can continue it or see its status.",
  /** A checkout link opened again after its payment was paid. */
  paidLinkBody: "This link has already been paid: there is nothing more to pay.",
  goToPayment: "Go to your payment",
  seeStatus: "See payment status",
  poweredBy: "Payments processed by Latam Payments",
  // Provider pages
  payWith: {
    pix: "Pay with PIX",
    spei: "Pay by SPEI transfer",
    oxxo: "Pay in cash at OXXO",
    boleto: "Pay with boleto",
    card: "Pay by card",
    bank_transfer: "Pay by bank transfer",
  } as Record<string, string>,
  pixSteps: "Open your bank app, choose PIX copy and paste (or scan the QR code) and confirm the payment.",
  pixCode: "PIX copy and paste code",
  pixQr: "PIX QR code",
  speiSteps: "From your bank, transfer exactly this amount to this CLABE. Use the reference as the payment concept.",
  clabe: "CLABE",
  bank: "Bank",
  /** The account holder a Mexican bank app asks for beside the CLABE. */
  beneficiary: "Beneficiary",
  reference: "Reference",
  amount: "Amount",
  oxxoSteps: "Show this barcode at the OXXO checkout and pay in cash. Your payment is confirmed within minutes.",
  oxxoReference: "OXXO reference",
  barcode: (ref: string) => `Barcode for reference ${ref}`,
  boletoSteps: "Pay this boleto in your bank app or at any bank before it expires.",
  boletoLine: "Digitable line",
  transferSteps: "Transfer exactly this amount from your bank using this reference.",
  cardTitle: "Card details",
  cardStandIn: "Test card form: in the sandbox no card data is collected or sent.",
  cardNumber: "Card number",
  cardExpiry: "Expiry (MM/YY)",
  cardCvc: "Security code",
  copy: "Copy",
  copied: "Copied",
  testControls: "Test controls",
  testControlsHelp: "Only in the sandbox: decide this payment's outcome.",
  simulatePaid: "Simulate paid",
  simulateFailed: "Simulate failed",
  status: "Status",
  statusLabel: { pending: "Waiting for payment", completed: "Paid", failed: "Failed", expired: "Expired", refunded: "Refunded", chargeback: "Charged back" } as Record<string, string>,
  returnTo: (merchant: string) => `Return to ${merchant}`,
  continueToResult: "Continue",
  // Result page
  resultTitle: { pending: "Waiting for your payment", completed: "Payment received", failed: "Payment failed", expired: "Payment expired", refunded: "Payment refunded", chargeback: "Payment disputed" } as Record<string, string>,
  resultBody: {
    pending: "Your payment is not confirmed yet. You can close this page: the store is notified either way.",
    completed: "Thank you. Your payment is confirmed.",
    failed: "The payment did not go through and nothing was charged.",
    expired: "The payment was not completed in time and nothing was charged.",
    refunded: "This payment was refunded.",
    chargeback: "This payment is under dispute with your bank.",
  } as Record<string, string>,
  /** Said only once a notice of this payment reached the store (a delivered webhook). */
  completedNotified: "Thank you. The store has been notified.",
  checking: "Checking for updates…",
  /** Said instead of "checking for updates" on a page without script, which cannot update itself. */
  noScriptStatus: "This page does not update by itself: reload it to see whether your payment has arrived.",
  checkAgain: "Check again",
  paymentMethod: "Payment method",
  // Hosted checkout additions: rail names and icon labels, the document field, deadlines,
  // printable instructions, "pay another way".
  railName: { pix: "PIX", spei: "SPEI", oxxo: "OXXO (cash)", cash: "Cash at OXXO", boleto: "Boleto", card: "Visa / Mastercard", pse: "PSE", bank: "Bank transfer" } as Record<string, string>,
  railIcon: { card: "Card", cash: "Cash", bank: "Bank", generic: "Pay" } as Record<string, string>,
  required: "required",
  documentFormat: {
    cpf_cnpj: "CPF: 11 digits (e.g. 529.982.247-25), or CNPJ: 14 characters",
    rfc_curp: "CURP: 18 characters (e.g. PEPJ800101HDFRRN09), or RFC: 12 or 13 characters",
    co_document: "Cédula or NIT: 6 to 10 digits",
    any: "Your identity document number, at least 4 characters",
    // A rule's words in one country (lib/checkout/document-hint.ts): what a Mexican buyer may type.
    "any:MX": "Your CURP (18 characters), RFC (12 or 13 characters) or INE voter ID number, at least 4 characters",
  } as Record<string, string>,
  documentMissing: "Enter your document number to continue.",
  documentInvalid: (format: string) => `This document number is not valid. ${format}.`,
  order: "Order",
  payBeforeLabel: "Pay before",
  dueDate: "Due date",
  printInstructions: "Print",
  downloadPdf: "Download PDF",
  voucherTitle: "Payment instructions",
  followsLive: "This page updates by itself once your payment arrives.",
  payAnotherWay: "Pay another way",
  retryBody: "You can choose another payment method to complete your order.",
  backToStoreBody: "To try again, go back to the store and start the checkout again.",
  // QR counter page (/qr/{token})
  qrTitle: { pending: "Scan to pay with PIX", paid: "Payment received", expired: "This code has expired", cancelled: "This charge was cancelled" } as Record<string, string>,
  qrBody: {
    pending: "Open your bank app, choose PIX, and scan this code or paste the copy-and-paste code.",
    paid: "Thank you. The payment was confirmed.",
    expired: "Nothing was charged. Ask for a new code.",
    cancelled: "Nothing was charged. Ask for a new code.",
  } as Record<string, string>,
  qrExpiresIn: "Expires in",
  qrLate: "If you paid just now, this screen turns paid as soon as the bank confirms.",
  qrNotFoundTitle: "Code not found",
  qrNotFoundBody: "This payment code is not valid.",
  qrStatusLabel: { pending: "Waiting for payment", paid: "Paid", expired: "Expired", cancelled: "Cancelled" } as Record<string, string>,
  paymentNotFoundTitle: "Payment not found",
  paymentNotFoundBody: "This payment link is not valid. Check the link you received.",
  /** The browser tab's title of each buyer page. */
  pageTitle: { checkout: "Checkout", payment: "Your payment", instructions: "Payment instructions", result: "Payment status" } as Record<"checkout" | "payment" | "instructions" | "result", string>,
};

export type Messages = typeof en;

const ALL: Record<Locale, Messages> = { en, es, "pt-BR": ptBR };

export function messages(locale: Locale): Messages {
  return ALL[locale];
}
