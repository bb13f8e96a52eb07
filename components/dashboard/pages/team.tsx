"use client";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { changeRoleAction, inviteUserAction, removeUserAction } from "@/app/dashboard/account-actions";
import { actionError, useDashboardMutation } from "@/components/dashboard/use-dashboard-data";
import { Card, PageHeader } from "@/components/ui/card";
import { Button } from "@/components/ui/button";
import { Field, FormError, Input, Select } from "@/components/ui/field";
import { SecretReveal } from "@/components/ui/secret-reveal";
import { Table, Td, Th } from "@/components/ui/table";
import { Badge } from "@/components/ui/badge";
import { formatDateTime } from "@/components/ui/money";
import { ROLES } from "@/lib/auth/policy";

type Member = { id: string; email: string; role: string; twoFactor: boolean; createdAt: string };

export function TeamView({ initial, me }: { initial: Member[]; me: string }) {
  const router = useRouter();
  const refresh = () => router.refresh();
  const invite = useDashboardMutation(inviteUserAction);
  const change = useDashboardMutation(changeRoleAction);
  const remove = useDashboardMutation(removeUserAction);
  const [email, setEmail] = useState("");
  const [role, setRole] = useState<string>("developer");
  const [dismissed, setDismissed] = useState<string | null>(null);
  const invited = invite.data?.ok && invite.data.data.temporaryPassword !== dismissed ? invite.data.data : null;
  const inviteError = actionError(invite.data, invite.error);
  const rowError = actionError(change.data, change.error) ?? actionError(remove.data, remove.error);
  return (
    <>
      <PageHeader title="Team" description="Who can sign in to this merchant's dashboard, and with which role." />
      <div className="space-y-6">
        <Card title="Invite a user">
          <form
            className="flex flex-wrap items-end gap-3"
            noValidate
            onSubmit={(e) => {
              e.preventDefault();
              invite.mutate([{ email, role }], { onSuccess: (r) => r.ok && (setEmail(""), refresh()) });
            }}
          >
            <Field label="Email" className="min-w-64 flex-1" error={inviteError?.param === "email" ? inviteError.message : null}>
              {(p) => <Input {...p} name="email" type="email" value={email} onChange={(e) => setEmail(e.target.value)} />}
            </Field>
            <Field label="Role" error={inviteError?.param === "role" ? inviteError.message : null}>
              {(p) => (
                <Select {...p} name="role" value={role} onChange={(e) => setRole(e.target.value)}>
                  {ROLES.map((r) => (
                    <option key={r} value={r}>
                      {r}
                    </option>
                  ))}
                </Select>
              )}
            </Field>
            <Button type="submit" busy={invite.isPending}>
              Invite
            </Button>
          </form>
          <div className="mt-3">
            <FormError message={inviteError && !inviteError.param ? inviteError.message : null} />
          </div>
          {invited ? (
            <div className="mt-4">
              <SecretReveal label={`Temporary password for ${invited.email}`} secret={invited.temporaryPassword} onDone={() => setDismissed(invited.temporaryPassword)} />
            </div>
          ) : null}
          <p className="mt-3 text-xs text-slate-600">There is no invitation email: hand the temporary password to the new user yourself, over a channel you trust.</p>
        </Card>
        <Card title="Members">
          <FormError message={rowError?.message} />
          <Table caption="Team members">
            <thead>
              <tr>
                <Th>Email</Th>
                <Th>Role</Th>
                <Th>Two-factor</Th>
                <Th>Added</Th>
                <Th>
                  <span className="sr-only">Actions</span>
                </Th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {initial.map((u) => (
                <tr key={u.id} data-testid="team-row" data-email={u.email}>
                  <Td>
                    {u.email} {u.id === me ? <span className="text-slate-500">(you)</span> : null}
                  </Td>
                  <Td>
                    <Select
                      aria-label={`Role of ${u.email}`}
                      value={u.role}
                      disabled={change.isPending}
                      onChange={(e) => change.mutate([u.id, e.target.value], { onSuccess: refresh })}
                    >
                      {ROLES.map((r) => (
                        <option key={r} value={r}>
                          {r}
                        </option>
                      ))}
                    </Select>
                  </Td>
                  <Td>{u.twoFactor ? <Badge tone="green">on</Badge> : <Badge tone="gray">off</Badge>}</Td>
                  <Td className="text-slate-600">{formatDateTime(u.createdAt)}</Td>
                  <Td>
                    <Button
                      size="sm"
                      variant="danger"
                      busy={remove.isPending && remove.variables?.[0] === u.id}
                      onClick={() => {
                        if (!window.confirm(`Remove ${u.email}? Their sessions end at once.`)) return;
                        remove.mutate([u.id], { onSuccess: refresh });
                      }}
                    >
                      Remove<span className="sr-only"> {u.email}</span>
                    </Button>
                  </Td>
                </tr>
              ))}
            </tbody>
          </Table>
        </Card>
      </div>
    </>
  );
}
