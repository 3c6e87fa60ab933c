import { MailWarning } from 'lucide-react'
import { toast } from '@/lib/toast'
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { FormStatus } from '@/components/ui/form-status'
import { errorMessage } from '@/lib/api-client'
import { useResendVerification } from '../api/resend-verification'

export const VERIFY_NOTICE_TITLE = 'Verify your email to unlock the app'

/** The yellow notice an unverified user sees on the dashboard instead of the app: the page's heading is its title. */
export function VerifyEmailNotice({ email, onRefresh, refreshing }: { email: string; onRefresh?: () => void; refreshing?: boolean }) {
  const resend = useResendVerification()

  function onResend() {
    resend.mutate(
      { email },
      {
        onSuccess: (data) => toast.success(data.message),
      },
    )
  }

  return (
    <Alert variant="warning" className="p-5">
      <MailWarning aria-hidden="true" />
      <div>
        <AlertTitle as="h1" className="text-lg">
          {VERIFY_NOTICE_TITLE}
        </AlertTitle>
        <AlertDescription className="grid gap-3">
          <p>
            We sent a verification link to <strong className="break-all">{email}</strong>. Open it to confirm your email, then refresh this
            page. Can't find it? Check your spam or junk folder.
          </p>
          <div className="flex flex-wrap gap-2">
            <Button variant="outline" onClick={onResend} disabled={resend.isPending} className="border-yellow-600 bg-white text-yellow-950 hover:bg-yellow-100">
              Resend verification email
            </Button>
            {onRefresh ? (
              <Button variant="ghost" onClick={onRefresh} disabled={refreshing} className="text-yellow-950 hover:bg-yellow-100">
                I've verified — refresh
              </Button>
            ) : null}
          </div>
          <FormStatus
            status={resend.isPending ? 'Sending...' : resend.isSuccess ? resend.data.message : null}
            error={resend.isError ? errorMessage(resend.error) : null}
            className="text-yellow-950 [&_p]:text-yellow-950"
          />
        </AlertDescription>
      </div>
    </Alert>
  )
}
