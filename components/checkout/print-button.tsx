// Prints the instructions (the print stylesheet keeps the voucher and drops the page's chrome).
// Hidden until script runs (public/buyer/islands.js, [data-print]): without it, the PDF link
// beside it does the same job.
export function PrintButton({ label, className }: { label: string; className: string }) {
  return (
    <button type="button" data-print="" hidden className={className}>
      {label}
    </button>
  );
}
