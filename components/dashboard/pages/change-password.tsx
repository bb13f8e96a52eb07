"use client";
import { changePasswordAction } from "@/server/actions/account";
import { ActionForm } from "@/components/dashboard/kit/action-form";
import { Card } from "@/components/ui/card";
import { Field, Input } from "@/components/ui/field";
import { MIN_PASSWORD_LENGTH } from "@/lib/accounts/schema";

export function ChangePasswordView({ email }: { email: string }) {
  return (
    <Card title="Change your password">
      <ActionForm
        className="max-w-md"
        label="Change your password"
        action={changePasswordAction}
        toArgs={(f) => [{ currentPassword: String(f.get("currentPassword") ?? ""), newPassword: String(f.get("newPassword") ?? "") }]}
        check={(f) => (f.get("newPassword") !== f.get("confirm") ? { param: "confirm", message: "The two new passwords differ." } : null)}
        fields={["currentPassword", "newPassword", "confirm"]}
        labels={{ currentPassword: "Current password", newPassword: "New password" }}
        submitLabel="Change password"
        done={() => <span>Your password is changed. Every other session of yours has ended.</span>}
      >
        {(f) => (
          <>
            <input type="email" name="username" value={email} autoComplete="username" readOnly hidden />
            <Field label="Current password" error={f.error("currentPassword")}>
              {(p) => <Input {...p} name="currentPassword" type="password" autoComplete="current-password" />}
            </Field>
            <Field label="New password" hint={`At least ${MIN_PASSWORD_LENGTH} characters.`} error={f.error("newPassword")}>
              {(p) => <Input {...p} name="newPassword" type="password" autoComplete="new-password" />}
            </Field>
            <Field label="Repeat the new password" error={f.error("confirm")}>
              {(p) => <Input {...p} name="confirm" type="password" autoComplete="new-password" />}
            </Field>
          </>
        )}
      </ActionForm>
    </Card>
  );
}
