"use client";
// Prints the instructions (the print stylesheet keeps the voucher and drops the page's chrome).
// Rendered only once script runs: without it, the PDF link beside it does the same job.
import { useEffect, useState } from "react";

export function PrintButton({ label, className }: { label: string; className: string }) {
  const [ready, setReady] = useState(false);
  useEffect(() => setReady(true), []);
  if (!ready) return null;
  return (
    <button type="button" onClick={() => window.print()} className={className}>
      {label}
    </button>
  );
}
