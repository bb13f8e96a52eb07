"use client";
import { Button } from "@/components/ui/button";

// An unexpected failure while rendering a page: say so plainly and offer a retry.
export default function DashboardError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <div role="alert" className="mx-auto max-w-lg py-16 text-center">
      <h1 className="text-2xl font-semibold text-slate-900">Something went wrong</h1>
      <p className="mt-2 text-slate-700">This page could not be loaded.{error.digest ? ` Quote ${error.digest} to support.` : ""}</p>
      <Button className="mt-6" onClick={reset}>
        Try again
      </Button>
    </div>
  );
}
