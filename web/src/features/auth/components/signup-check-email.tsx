import { Link } from 'react-router'
import { Button } from '@/components/ui/button'
import { FormStatus } from '@/components/ui/form-status'
import { errorMessage } from '@/lib/api-client'
import { useResendVerification } from '../api/resend-verification'
import { AuthCard } from './auth-card'
import { useFocusOnMount } from '../hooks/use-focus-on-mount'

export const CHECK_EMAIL_TITLE = 'Check your email'

/**
 * What everyone sees after signing up: sign-up answers alike for new and
 * registered addresses, so the next step is always in the inbox.
 */
export function SignupCheckEmail({ email, message, onStartOver }: { email: string; message: string; onStartOver: () => void }) {
  const heading = useFocusOnMount<HTMLHeadingElement>()
  const resend = useResendVerification()
  return (
    <AuthCard
      title={CHECK_EMAIL_TITLE}
      headingRef={heading}
      description={message}
      footer={
        <>
          <p className="text-muted-foreground">
            Confirmed your email, or already have an account?{' '}
            <Link to="/login" className="font-medium text-primary underline-offset-4 hover:underline">
              Log in
            </Link>
          </p>
          <Button variant="link" className="h-auto p-0 text-left whitespace-normal" onClick={onStartOver}>
            Use a different email
          </Button>
        </>
      }
    >
      <div className="grid gap-4">
        <p className="text-sm">
          We sent it to <strong className="break-all">{email}</strong>.
        </p>
        <Button variant="outline" className="w-full" disabled={resend.isPending} onClick={() => resend.mutate({ email })}>
          Resend verification email
        </Button>
        <FormStatus
          status={resend.isPending ? 'Sending...' : resend.isSuccess ? resend.data.message : null}
          error={resend.isError ? errorMessage(resend.error) : null}
        />
      </div>
    </AuthCard>
  )
}
