// The selector's "choose a method first": a form sent without a method gets the message in the
// page's language (never the browser's own bubble, which speaks the browser's language) and the
// focus on the method list (public/buyer/islands.js, [data-method-guard]). Without script the
// server does the same after the post (error=choose_method: the message here and `autofocus` on
// the first method).
const SHOWN = "mb-3 rounded-lg border border-red-300 bg-red-50 px-4 py-3 text-sm font-medium text-red-900";
const HIDDEN = "sr-only";

export function MethodGuard({ message, initiallyShown }: { message: string; initiallyShown: boolean }) {
  return (
    <p id="method-error" role="alert" data-method-guard="" data-message={message} data-shown-class={SHOWN} data-hidden-class={HIDDEN} className={initiallyShown ? SHOWN : HIDDEN}>
      {initiallyShown ? message : ""}
    </p>
  );
}
