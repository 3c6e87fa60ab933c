import type { FormEvent, ReactNode } from 'react'
import { Button } from '@/components/ui/button'
import { FormStatus } from '@/components/ui/form-status'
import { errorMessage } from '@/lib/api-client'

/** What the form shell reads of a TanStack mutation. */
type SubmitState<TData> = { isPending: boolean; isError: boolean; error: unknown } & ({ isSuccess: true; data: TData } | { isSuccess: false })

/**
 * The scaffolding every account form shares: its fields, one full-width
 * submit button that is disabled while the request runs (a second submit is
 * ignored), and the status line under it — progress ("Logging in..."), the
 * success message, or the server's error prefixed with a cross.
 */
export function AuthForm<TData>({
  mutation,
  onSubmit,
  submitLabel,
  pendingStatus,
  successStatus,
  children,
}: {
  mutation: SubmitState<TData>
  onSubmit: () => void
  submitLabel: string
  pendingStatus: string
  successStatus: string | ((data: TData) => string)
  children: ReactNode
}) {
  function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault()
    if (!mutation.isPending) onSubmit()
  }

  let status: string | null = null
  if (mutation.isPending) status = pendingStatus
  else if (mutation.isSuccess) status = typeof successStatus === 'string' ? successStatus : successStatus(mutation.data)
  const error = mutation.isError ? errorMessage(mutation.error) : null

  return (
    <form onSubmit={submit} className="grid gap-4">
      {children}
      <Button type="submit" disabled={mutation.isPending} className="w-full">
        {submitLabel}
      </Button>
      <FormStatus status={status} error={error} />
    </form>
  )
}
