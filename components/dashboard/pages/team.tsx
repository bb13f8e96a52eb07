"use client";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { changeRoleAction, inviteUserAction, removeUserAction, renewInviteAction } from "@/server/actions/team";
import { ActionForm } from "@/components/dashboard/kit/action-form";
import { CopyButton } from "@/components/ui/copy-button";
import { actionError, useDashboardMutation } from "@/components/dashboard/use-dashboard-data";
import { Card, PageHeader } from "@/components/ui/card";
import { Button } from "@/components/ui/button";
import { Field, FormError, Input, Select } from "@/components/ui/field";
import { Table, Td, Th } from "@/components/ui/table";
import { Badge } from "@/components/ui/badge";
import { useTimes } from "@/components/ui/time-zone";
import { ROLES } from "@/lib/platform/auth/policy";
import { ROLE_LABELS } from "@/components/dashboard/payment-labels";
import { statusWord } from "@/components/dashboard/status-words";

type Member = { id: string; email: string; role: string; twoFactor: boolean; invite: "pending" | "expired" | null; createdAt: string };

/** A one-time invite link, shown to the owner who hands it over. */
function InviteLink({ email, url, expiresAt }: { email: string; url: string; expiresAt: string | null }) {
  const { formatDateTime } = useTimes();
  return (
    <div role="region" aria-label={`Invite link for ${email}`} className="space-y-2">
      <p className="font-medium">Invite link for {email}</p>
      <p>Send it to them: it works once{expiresAt ? `, until ${formatDateTime(expiresAt)}` : ""}, and is shown only now.</p>
      <div className="flex flex-wrap items-center gap-2">
        <code data-testid="invite-link" className="break-all rounded bg-white px-2 py-1 font-mono text-xs text-slate-900 ring-1 ring-emerald-200">
          {url}
        </code>
        <CopyButton value={url} />
      </div>
    </div>
  );
}

export function TeamView({ initial, me }: { initial: Member[]; me: string }) {
  const { formatDateTime } = useTimes();
  const router = useRouter();
  const refresh = () => router.refresh();
  const change = useDashboardMutation(changeRoleAction);
  const remove = useDashboardMutation(removeUserAction);
  const renew = useDashboardMutation(renewInviteAction);
  const [role, setRole] = useState<string>("developer");
  const rowError = actionError(change.data, change.error) ?? actionError(remove.data, remove.error) ?? actionError(renew.data, renew.error);
  const renewed = renew.data?.ok && renew.data.data.inviteUrl ? renew.data.data : null;
  // The server refuses to remove the last owner (last_owner, counting invited owners too): the
  // button says so before anyone clicks it.
  const onlyOwner = initial.filter((u) => u.role === "owner").length <= 1;
  return (
    <>
      <PageHeader title="Team" description="Who can sign in to this merchant's dashboard, and with which role." />
      <div className="space-y-6">
        <Card title="Invite a user">
          {/* Once per submission: a double click or a retry invites once and shows the link. */}
          <ActionForm
            label="Invite a user"
            action={inviteUserAction}
            toArgs={(f) => [{ email: String(f.get("email") ?? ""), role }]}
            fields={["email", "role"]}
            labels={{ email: "Email", role: "Role" }}
            submitLabel="Invite"
            after="lock"
            againLabel="Invite someone else"
            onDone={refresh}
            done={(invited) =>
              invited.inviteUrl ? (
                <InviteLink email={invited.email} url={invited.inviteUrl} expiresAt={invited.inviteExpiresAt} />
              ) : (
                <span>{invited.email} has accepted the invite already.</span>
              )
            }
          >
            {(f) => (
              <div className="flex flex-wrap items-end gap-3">
                <Field label="Email" className="min-w-64 flex-1" error={f.error("email")}>
                  {(p) => <Input {...p} name="email" type="email" autoComplete="off" />}
                </Field>
                <Field label="Role" error={f.error("role")}>
                  {(p) => (
                    <Select {...p} name="role" value={role} onChange={(e) => setRole(e.target.value)}>
                      {ROLES.map((r) => (
                        <option key={r} value={r} title={r}>
                          {ROLE_LABELS[r] ?? r}
                        </option>
                      ))}
                    </Select>
                  )}
                </Field>
              </div>
            )}
          </ActionForm>
          <p className="mt-3 text-xs text-slate-600">
            There is no invitation email: hand the link to the new user yourself, over a channel you trust. It works once, for 7 days; the new user chooses their own password
            there.
          </p>
        </Card>
        <Card title="Members">
          <FormError message={rowError?.message} />
          {renewed ? (
            <div role="status" className="mb-3 rounded-md bg-emerald-50 px-3 py-2 text-sm text-emerald-900">
              <InviteLink email={renewed.email} url={renewed.inviteUrl!} expiresAt={renewed.inviteExpiresAt} />
            </div>
          ) : null}
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
                    {u.invite ? (
                      <Badge tone={u.invite === "pending" ? "yellow" : "gray"} tech={`invite ${u.invite}`} className="ml-2">
                        {statusWord("invite", u.invite)}
                      </Badge>
                    ) : null}
                  </Td>
                  <Td>
                    <Select
                      aria-label={`Role of ${u.email}`}
                      value={u.role}
                      disabled={change.isPending}
                      onChange={(e) => change.mutate([u.id, e.target.value], { onSuccess: refresh })}
                    >
                      {ROLES.map((r) => (
                        <option key={r} value={r} title={r}>
                          {ROLE_LABELS[r] ?? r}
                        </option>
                      ))}
                    </Select>
                  </Td>
                  <Td>{u.twoFactor ? <Badge tone="green">On</Badge> : <Badge tone="gray">Off</Badge>}</Td>
                  <Td className="text-slate-600">{formatDateTime(u.createdAt)}</Td>
                  <Td className="space-x-2 whitespace-nowrap">
                    {u.invite ? (
                      <Button size="sm" variant="secondary" busy={renew.isPending && renew.variables?.[0] === u.id} onClick={() => renew.mutate([u.id], { onSuccess: refresh })}>
                        New link<span className="sr-only"> for {u.email}</span>
                      </Button>
                    ) : null}
                    <Button
                      size="sm"
                      variant="danger"
                      disabled={onlyOwner && u.role === "owner"}
                      aria-describedby={onlyOwner && u.role === "owner" ? `only-owner-${u.id}` : undefined}
                      busy={remove.isPending && remove.variables?.[0] === u.id}
                      onClick={() => {
                        if (!window.confirm(`Remove ${u.email}? Their sessions end at once.`)) return;
                        remove.mutate([u.id], { onSuccess: refresh });
                      }}
                    >
                      Remove<span className="sr-only"> {u.email}</span>
                    </Button>
                    {onlyOwner && u.role === "owner" ? (
                      <p id={`only-owner-${u.id}`} data-testid="only-owner-reason" className="mt-1 whitespace-normal text-xs text-slate-600">
                        The only owner can't be removed: make someone else an owner first.
                      </p>
                    ) : null}
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
