// A resource's status as a badge: the dashboard's word (components/dashboard/status-words.ts),
// the API's word in its tooltip for developers. `api` is the API's status where the page shows
// its own state of the record (a completed payment the dashboard calls "Disputed").
import { Badge, statusTone } from "@/components/ui/badge";
import { statusWord, type StatusOf } from "@/components/dashboard/status-words";

/** `word` replaces the English word where the page speaks another language (the API's stays in the tooltip). */
export function StatusBadge({ of, status, api = status, word }: { of: StatusOf; status: string; api?: string; word?: string }) {
  return (
    <Badge tone={statusTone(status)} tech={api} data-status-of={of}>
      {word ?? statusWord(of, status)}
    </Badge>
  );
}
