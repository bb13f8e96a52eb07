import Link from "next/link";

// An unknown id, another merchant's id, or an object of the other environment: all the same 404.
export default function DashboardNotFound() {
  return (
    <div className="mx-auto max-w-lg py-16 text-center">
      <h1 className="text-2xl font-semibold text-slate-900">Not found</h1>
      <p className="mt-2 text-slate-700">Nothing with this id exists in this environment. If it was made with the other kind of key, switch between sandbox and production in the header.</p>
      <Link href="/dashboard" className="mt-6 inline-block font-medium text-indigo-700 underline underline-offset-2">
        Back to the overview
      </Link>
    </div>
  );
}
