"use client";
import { useState } from "react";
import { Check, Copy } from "lucide-react";
import { Button } from "@/components/ui/button";
import { useTimes } from "@/components/ui/time-zone";
import { uiWords } from "@/components/ui/ui-words";

export function CopyButton({ value, label = "Copy" }: { value: string; label?: string }) {
  const [copied, setCopied] = useState(false);
  const w = uiWords(useTimes().locale);
  return (
    <Button
      variant="secondary"
      size="sm"
      onClick={async () => {
        try {
          await navigator.clipboard.writeText(value);
        } catch {
          // Clipboard refused (insecure context): select-and-copy still works on the shown text.
        }
        setCopied(true);
        setTimeout(() => setCopied(false), 2000);
      }}
    >
      {copied ? <Check aria-hidden className="size-4" /> : <Copy aria-hidden className="size-4" />}
      <span>{copied ? w.copied : label}</span>
      <span role="status" className="sr-only">
        {copied ? w.copiedToClipboard : ""}
      </span>
    </Button>
  );
}
