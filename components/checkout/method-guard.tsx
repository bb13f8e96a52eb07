"use client";
// The selector's "choose a method first": a form sent without a method gets the message in the
// page's language (never the browser's own bubble, which speaks the browser's language) and the
// focus on the method list. Without script the server does the same after the post
// (error=choose_method: the message here and `autofocus` on the first method).
import { useEffect, useRef, useState } from "react";

export function MethodGuard({ message, initiallyShown }: { message: string; initiallyShown: boolean }) {
  const box = useRef<HTMLParagraphElement>(null);
  const [shown, setShown] = useState(initiallyShown);
  useEffect(() => {
    const form = box.current?.closest("form");
    if (!form) return;
    const radios = () => [...form.querySelectorAll<HTMLInputElement>('input[name="paymentMethodId"]')];
    const onInvalid = (e: Event) => {
      if (radios().some((r) => r.checked)) return; // the method is there: other fields speak for themselves
      // Every invalid control's bubble is cancelled, so the browser moves the focus nowhere; the method list takes it.
      e.preventDefault();
      setShown(true);
      if (e.target === radios()[0]) radios()[0]!.focus();
    };
    const onChange = (e: Event) => {
      if ((e.target as HTMLInputElement).name === "paymentMethodId") setShown(false);
    };
    form.addEventListener("invalid", onInvalid, true);
    form.addEventListener("change", onChange);
    return () => {
      form.removeEventListener("invalid", onInvalid, true);
      form.removeEventListener("change", onChange);
    };
  }, []);
  return (
    <p ref={box} id="method-error" role="alert" className={shown ? "mb-3 rounded-lg border border-red-300 bg-red-50 px-4 py-3 text-sm font-medium text-red-900" : "sr-only"}>
      {shown ? message : ""}
    </p>
  );
}
