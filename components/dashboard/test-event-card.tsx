"use client";
// Sandbox: "Send a test event" on a subscription's page (issue 41, point 6). The action calls
// POST /webhooks/{id}/test's use case: a signed `webhook.test` event delivered to this endpoint
// through the normal pipeline, so it shows in the delivery log (and a managed inbox) below.
import { ActionForm } from "@/components/dashboard/kit/action-form";
import { sendTestEventAction } from "@/server/actions/webhooks";
import { Card } from "@/components/ui/card";

export function TestEventCard({ id, enabled }: { id: string; enabled: boolean }) {
  return (
    <Card title="Send a test event (sandbox)" id="test-event">
      <p className="mb-3 text-sm text-slate-600">
        {enabled
          ? "Sends a signed test event to this endpoint, whatever events it listens to, exactly as real events are sent: check your endpoint verifies the signature and answers 2xx."
          : "Enable this subscription to send it a test event."}
      </p>
      {enabled ? (
        <ActionForm
          label="Send a test event"
          action={sendTestEventAction}
          toArgs={() => [id]}
          fields={[]}
          submitLabel="Send test event"
          submitVariant="secondary"
          done={() => "Test event sent: its delivery is in the log below."}
        >
          {() => null}
        </ActionForm>
      ) : null}
    </Card>
  );
}
